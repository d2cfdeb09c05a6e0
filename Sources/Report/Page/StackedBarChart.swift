import Support

/// A stacked bar chart as inline SVG, with a labelled value axis (its unit written on it), a
/// labelled category axis and a tooltip per segment that names the bar, the series and the
/// amount with its currency.
///
/// Only positive amounts are drawn (credits below zero are in the tables).
struct StackedBarChart {
    struct Series {
        var name: String
        var color: String
    }

    struct Bar {
        /// Under the bar (`5`, `Oct 2026`).
        var label: String
        /// In its tooltips (`2026-10-05`).
        var fullLabel: String
        /// Nanos per series, in the order of `series`.
        var values: [Int64]
    }

    /// `data-chart` name, for checks and styling.
    var name: String
    /// For screen readers.
    var description: String
    var series: [Series]
    var bars: [Bar]
    var currency: String
    /// On the value axis: `USD per day`.
    var unit: String
    /// Under the category axis: `day of October 2026`.
    var axisTitle: String
    /// A bar to mark (the report month), with its caption.
    var marked: (index: Int, caption: String)?

    /// The drawing's size in its own units, and how many category labels fit.
    struct Layout {
        var width: Double, height: Double, left: Double, right: Double, top: Double, bottom: Double
        /// At most this many labels under the bars.
        var labels: Int
        /// `wide` or `narrow`, the class that CSS shows or hides by screen width.
        var name: String

        /// For a screen of a laptop or wider: every day labelled.
        static let wide = Layout(width: 960, height: 280, left: 78, right: 12, top: 26, bottom: 46, labels: 31, name: "wide")
        /// For a phone: drawn at about its own size, so the text stays as large as on a laptop.
        static let narrow = Layout(width: 360, height: 250, left: 46, right: 6, top: 24, bottom: 44, labels: 14, name: "narrow")
    }

    /// The chart twice, wide and narrow; the page's CSS shows the one that fits the screen.
    var svg: String {
        "<div class=\"chart\">" + drawing(.wide) + drawing(.narrow) + "</div>"
    }

    func drawing(_ layout: Layout) -> String {
        typealias T = PageText
        let width = layout.width, height = layout.height, left = layout.left, right = layout.right
        let top = layout.top, bottom = layout.bottom
        let plotHeight = height - top - bottom
        // Saturating: a bar's height is drawn, not summed into a figure, and must not trap.
        let maxTotal =
            bars.map { bar in
                bar.values.reduce(Int64(0)) { total, value in
                    let (sum, overflow) = total.addingReportingOverflow(max(0, value))
                    return overflow ? Int64.max : sum
                }
            }.max() ?? 0
        let scale = AxisScale(maximum: maxTotal)
        var svg =
            "<svg class=\"chart-\(layout.name)\" data-chart=\"\(name)\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"100%\" role=\"img\" aria-label=\"\(T.escape(description))\">"
        svg += "<text x=\"\(T.coordinate(left))\" y=\"14\" font-size=\"11.5\" fill=\"#52606d\">\(T.escape(unit))</text>"
        for step in 0...scale.steps {
            let y = height - bottom - plotHeight * Double(step) / Double(scale.steps)
            svg +=
                "<line x1=\"\(T.coordinate(left))\" x2=\"\(T.coordinate(width - right))\" y1=\"\(T.coordinate(y))\" y2=\"\(T.coordinate(y))\" stroke=\"#e4e7eb\"/>"
            svg +=
                "<text x=\"\(T.coordinate(left - 6))\" y=\"\(T.coordinate(y + 4))\" font-size=\"11\" text-anchor=\"end\" fill=\"#52606d\">\(scale.label(step))</text>"
        }
        let slot = (width - left - right) / Double(max(1, bars.count))
        if let marked, marked.index < bars.count {
            let x = left + Double(marked.index) * slot
            svg +=
                "<rect x=\"\(T.coordinate(x))\" y=\"\(T.coordinate(top))\" width=\"\(T.coordinate(slot))\" height=\"\(T.coordinate(plotHeight))\" fill=\"#fff4e5\"/>"
            svg +=
                "<text x=\"\(T.coordinate(x + slot / 2))\" y=\"\(T.coordinate(top - 4))\" font-size=\"11\" text-anchor=\"middle\" fill=\"#b45309\">\(T.escape(marked.caption))</text>"
        }
        let labelEvery = bars.count <= layout.labels ? 1 : (bars.count + layout.labels / 2 - 1) / (layout.labels / 2)
        for (index, bar) in bars.enumerated() {
            var y = height - bottom
            let x = left + Double(index) * slot + slot * 0.14
            for (position, value) in bar.values.enumerated() where value > 0 && position < series.count {
                let h = plotHeight * Double(value) / Double(scale.top)
                y -= h
                let tooltip = "\(bar.fullLabel) \(series[position].name): \(T.money(Money(nanos: value))) \(currency)"
                svg +=
                    "<rect x=\"\(T.coordinate(x))\" y=\"\(T.coordinate(y))\" width=\"\(T.coordinate(slot * 0.72))\" height=\"\(T.coordinate(h))\" fill=\"\(series[position].color)\"><title>\(T.escape(tooltip))</title></rect>"
            }
            if index % labelEvery == 0 {
                svg +=
                    "<text x=\"\(T.coordinate(x + slot * 0.36))\" y=\"\(T.coordinate(height - bottom + 15))\" font-size=\"10.5\" text-anchor=\"middle\" fill=\"#52606d\">\(T.escape(bar.label))</text>"
            }
        }
        svg +=
            "<text x=\"\(T.coordinate(left + (width - left - right) / 2))\" y=\"\(T.coordinate(height - 8))\" font-size=\"11.5\" text-anchor=\"middle\" fill=\"#52606d\">\(T.escape(axisTitle))</text>"
        return svg + "</svg>"
    }

    /// The legend for the series, as swatches.
    var legend: String {
        "<p class=\"muted\">"
            + series.map { "<span class=\"swatch\" style=\"background:\($0.color)\"></span>\(PageText.escape($0.name))" }
            .joined(separator: " &nbsp; ") + "</p>"
    }
}

/// A value axis with round steps (1, 2 or 5 times a power of ten) that reach past the maximum
/// by at least a twelfth of it: the tallest bar never meets the top of the chart.
struct AxisScale {
    /// Nanos per step.
    var step: Int64
    var steps: Int
    /// Decimals the labels need for the step.
    var decimals: Int

    init(maximum: Int64) {
        var step: Int64 = 1_000_000  // 0.001
        var decimals = 3
        var multipliers = [Int64(1), 2, 5].makeIterator()
        var base = step
        // Compared by division, never by a product: a day of billions in the report currency
        // (nanos near Int64.max) must not overflow the scale.
        while step < maximum / 5 + (maximum % 5 == 0 ? 0 : 1) {
            if let multiplier = multipliers.next() {
                step = base * multiplier
            } else {
                guard base <= Int64.max / 50 else { break }
                base *= 10
                decimals = max(0, decimals - 1)
                multipliers = [Int64(1), 2, 5].makeIterator()
                step = base
            }
        }
        self.step = step
        self.decimals = step >= Money.nanosPerUnit ? 0 : decimals
        // Headroom: the axis ends a twelfth or more above the tallest bar (saturating near the largest amounts).
        let (needed, overflow) = maximum.addingReportingOverflow(maximum / 12 + 1)
        let reach = overflow ? maximum : needed
        steps = max(1, Int(reach / step + (reach % step == 0 ? 0 : 1)))
    }

    var top: Int64 {
        let (product, overflow) = step.multipliedReportingOverflow(by: Int64(steps))
        return overflow ? Int64.max : product
    }

    func label(_ index: Int) -> String {
        let (product, overflow) = step.multipliedReportingOverflow(by: Int64(index))
        return PageText.money(Money(nanos: overflow ? Int64.max : product), decimals: decimals)
    }
}
