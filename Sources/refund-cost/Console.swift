import RefundCost

/// Progress lines on standard error for long runs: one every two seconds, never on stdout,
/// and none at all with `--quiet`.
/// Called from one reading thread at a time, so its state needs no lock.
final class ProgressLine: @unchecked Sendable {
    private let quiet: Bool
    private let started = Clock.monotonicSeconds()
    private var lastPrinted: Double
    private var bytes = 0
    private let interval = 2.0

    init(quiet: Bool) {
        self.quiet = quiet
        lastPrinted = started
    }

    var elapsed: Double { Clock.monotonicSeconds() - started }

    /// Adds bytes read and prints a line when the interval has passed.
    func advance(bytes count: Int, rows: Int, file: String) {
        advance(toBytes: bytes + count, rows: rows, file: file)
    }

    /// Sets the bytes read so far and prints a line when the interval has passed.
    func advance(toBytes total: Int, rows: Int, file: String) {
        bytes = total
        guard !quiet else { return }
        let now = Clock.monotonicSeconds()
        guard now - lastPrinted >= interval else { return }
        lastPrinted = now
        let seconds = now - started
        writeStandardError(
            "  \(file): \(Format.count(rows)) rows, \(Format.megabytes(bytes)) read, "
                + "\(Format.rate(Double(bytes) / 1e6 / seconds)) MB/s, \(Format.seconds(seconds))\n")
    }
}

/// Numbers for people: thousands separated, rates with one decimal.
enum Format {
    static func count(_ value: Int) -> String { HumanText.count(value) }

    static func megabytes(_ bytes: Int) -> String {
        fixed(Double(bytes) / 1e6, decimals: 1) + " MB"
    }

    static func rate(_ value: Double) -> String {
        value.isFinite ? fixed(value, decimals: 1) : "-"
    }

    static func seconds(_ value: Double) -> String {
        fixed(value, decimals: 2) + " s"
    }

    /// A non-negative number with a fixed count of decimals (for display only, never money).
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = scaled % Int(scale)
        guard decimals > 0 else { return String(whole) }
        let fractionText = String(fraction)
        return "\(whole)." + String(repeating: "0", count: decimals - fractionText.count) + fractionText
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    static func padRight(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
