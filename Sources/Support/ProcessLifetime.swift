/// Values a command keeps until the process ends.
package enum ProcessLifetime {
    /// Holds `values` until the process exits, never releasing them.
    ///
    /// A report's ledger is millions of small objects: freed one by one when the run returns, they
    /// take a quarter of a second at 100,000 accounts; the system takes the memory back at once
    /// when the process exits a moment later. Only for what a command is done with right before
    /// it ends.
    package static func keepUntilExit(_ values: Any...) {
        _ = Unmanaged.passRetained(Kept(values))
    }

    private final class Kept {
        let values: [Any]

        init(_ values: [Any]) { self.values = values }
    }
}
