import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synchronization
import Synthetic

/// Progress lines on standard error for long runs: one every two seconds, never on stdout,
/// and none at all with `--quiet`.
///
/// Reading threads report to it at once, so its state sits behind a lock.
final class ProgressLine: Sendable {
    private struct State {
        var lastPrinted: Double
        var bytes = 0
        /// What is being read now, and since when: the rate is of this phase alone.
        var phase = ""
        var phaseStarted: Double
    }

    private let quiet: Bool
    private let started = Clock.monotonicSeconds()
    private let state: Mutex<State>
    private let interval = 2.0

    init(quiet: Bool) {
        self.quiet = quiet
        state = Mutex(State(lastPrinted: started, phaseStarted: started))
    }

    var elapsed: Double { Clock.monotonicSeconds() - started }

    /// Adds bytes read and prints a line when the interval has passed.
    func advance(bytes count: Int, rows: Int, file: String) {
        let total = state.withLock { $0.bytes + count }
        advance(toBytes: total, rows: rows, file: file)
    }

    /// Sets the bytes read so far of `file` (a phase: `costs`, the App Store files) and prints a
    /// line when the interval has passed.
    func advance(toBytes total: Int, rows: Int, file: String, unit: String = "rows") {
        let now = Clock.monotonicSeconds()
        let phaseStarted = state.withLock { state -> Double? in
            if state.phase != file {
                state.phase = file
                state.phaseStarted = now
            }
            state.bytes = total
            guard !quiet, now - state.lastPrinted >= interval else { return nil }
            state.lastPrinted = now
            return state.phaseStarted
        }
        guard let phaseStarted else { return }
        let seconds = now - started
        writeStandardError(
            "  \(file): \(Format.count(rows)) \(unit), \(Format.megabytes(total)) read, "
                + "\(Format.rate(Double(total) / 1e6 / max(now - phaseStarted, 1e-3))) MB/s; "
                + "\(Format.seconds(seconds)) since the start\n")
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

    /// `text` padded to `width`; a longer text keeps two spaces after it, so a label never runs
    /// into its value.
    static func padRight(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(2, width - text.count))
    }
}

/// What a run said but did not stop for, on standard error: the one place warnings are printed
/// (each starts `warning:`, docs/contract.md), whatever the command and `--quiet`.
func printWarnings(_ warnings: [Diagnostic]) {
    for warning in warnings { writeStandardError(warning.description + "\n") }
}
