import Ingest
import Support

/// Writes generated delivery-cost rows into one CSV per month, in the order they were spent
/// (made account by account, and put in time order a day at a time, so memory does not grow
/// with the number of rows).
struct CostRowWriter {
    private let options: GeneratorOptions
    /// The months of the window, by label: the files a row can go to.
    private var months: [String] = []
    private let rowsByTime: TimeOrderedRows
    /// `--cost-form focus`: the bill that pays for the pooled categories.
    private var bill = FocusBillWriter()
    private let root: String
    private var nextRequest = 0
    private(set) var rows = 0
    private(set) var duplicates = 0
    private(set) var foreignRows = 0

    static let header = ["timestamp", "account_id", "category", "cost", "currency", "quantity", "unit", "request_id"]
    /// Helicone's request export, as `npx @helicone/export --format csv` writes it.
    static let heliconeHeader = [
        "request_id", "request_created_at", "request_user_id", "provider", "request_model", "model", "prompt_tokens",
        "completion_tokens", "total_tokens", "cost", "response_id", "response_status", "delay_ms",
    ]

    init(root: String, options: GeneratorOptions) throws {
        self.root = root
        self.options = options
        try FileSystem.createDirectory(root + "/costs")
        rowsByTime = try TimeOrderedRows()
        var month = options.windowStart
        while month < options.windowEnd {
            months.append(DatasetGenerator.monthLabel(month))
            month = CivilDate.addingMonths(Timestamp(milliseconds: month), 1).milliseconds
        }
    }

    /// Spreads the account's rows over the parts of its spans inside the window, by length.
    mutating func write(account: String, spans: [ServedSpan], random: inout SeededRandom) throws {
        let clipped = spans.compactMap { span -> ServedSpan? in
            let from = max(span.from, options.windowStart)
            let to = min(span.to, options.windowEnd)
            return to > from ? ServedSpan(from: from, to: to, credits: span.credits) : nil
        }
        let total = clipped.reduce(Int64(0)) { $0 + ($1.to - $1.from) }
        guard total > 0 else { return }
        let count = max(1, options.costRowsPerAccount + Int(random.between(-2, 2)))
        for _ in 0..<count {
            var offset = random.below(total)
            var span = clipped[0]
            for candidate in clipped {
                if offset < candidate.to - candidate.from {
                    span = candidate
                    break
                }
                offset -= candidate.to - candidate.from
            }
            try writeRow(
                account: account, at: span.from + offset, credits: span.credits && options.creditMeteredUse, random: &random)
        }
    }

    private mutating func writeRow(account: String, at: Int64, credits: Bool, random: inout SeededRandom) throws {
        let label = DatasetGenerator.monthLabel(at)
        guard months.contains(label) else { return }
        let category =
            credits
            ? ["api", "compute"][random.weighted([70, 30])]
            : ["compute", "api", "storage", "payout"][random.weighted([40, 35, 15, 10])]
        let (low, high, unit): (Int64, Int64, String) =
            switch category {
            case "compute": (2_000, 600_000, "gpu_second")
            case "api": (100, 50_000, "token")
            case "storage": (1_000, 10_000, "gb_day")
            default: (100_000, 2_000_000, "usd")
            }
        let foreign = random.chance(3)
        if foreign { foreignRows += 1 }
        nextRequest += 1
        let request = "req-" + String(nextRequest).leftPadded(to: 9)
        let cost = Money(nanos: random.between(low, high) * 1000)
        let quantity = credits ? random.between(1, 20) : random.between(1, 5000)
        let copies = random.chance(1) && random.chance(20) ? 2 : 1
        if copies == 2 { duplicates += 1 }
        let pooled = options.costForm == .focus && FocusBillWriter.isPooled(category)
        let asHelicone = options.costForm == .helicone && category == "api" && !credits && !foreign
        for copy in 0..<copies {
            rows += 1
            if asHelicone {
                // The same request as a gateway logs it: tokens split into prompt and completion.
                var export = CSVLine()
                let prompt = quantity * 3 / 4
                export.text("h-" + request)
                export.timestamp(Timestamp(milliseconds: at))
                for field in [account, "OPENAI", category, category] { export.text(field) }
                export.integer(Int(prompt))
                export.integer(Int(quantity - prompt))
                export.integer(Int(quantity))
                export.money(cost)
                export.text(request)
                export.text("200")
                // No random draw here: every form of a seed holds the same rows.
                export.integer(Int(100 + quantity % 1900))
                try rowsByTime.add(export.line, target: "helicone-\(label).csv", at: at)
                continue
            }
            var file = CSVLine()
            file.timestamp(Timestamp(milliseconds: at))
            file.text(account)
            file.text(category)
            if pooled {
                // Usage the bill pays for: a quantity, no cost.
                bill.add(
                    category: category, at: at, cost: cost, quantityNanos: quantity * Money.nanosPerUnit, firstCopy: copy == 0)
                file.empty()
                file.empty()
            } else {
                file.money(cost)
                file.text(foreign ? "EUR" : "USD")
            }
            file.integer(Int(quantity))
            file.text(credits ? "credit" : unit)
            file.text(request)
            try rowsByTime.add(file.line, target: "\(label).csv", at: at)
        }
    }

    /// Writes each month's rows, in the order they were spent, into `files`' slice.
    func finish(into files: SlicedFiles) throws -> Int {
        for label in months {
            let file = try files.open(root + "/costs/\(label).csv", header: CSVLine.header(CostRowWriter.header))
            try rowsByTime.drain("\(label).csv") { try file.append($0, at: $1) }
        }
        if options.costForm == .helicone {
            for label in months {
                let file = try files.open(
                    root + "/costs/helicone-\(label).csv", header: CSVLine.header(CostRowWriter.heliconeHeader))
                try rowsByTime.drain("helicone-\(label).csv") { try file.append($0, at: $1) }
            }
        }
        return rows
    }

    /// The FOCUS bill, its allocation and the allocated rows, from the month files once written.
    func finishBill() throws {
        if options.costForm == .focus { try bill.finish(root: root, monthFiles: months.map { $0 + ".csv" }) }
    }
}
