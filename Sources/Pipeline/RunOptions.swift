import Attribution
import Ingest
import Support

/// What a run was asked to do (`report`, each step of a distributed report, `respond`): the
/// folders, the window, and how the App Store side is read, which holds the run's only as-of time.
package struct RunOptions: Sendable {
    package var data: String
    package var out: String
    package var window: ReportWindow
    /// How the App Store side is read and the ledger built (environment, currency, trust,
    /// premature window, as-of time: the window's end unless `--as-of` says otherwise).
    package var appStore: LedgerLoad.Options
    package var grace: TimeSpan = .hours(1)
    package var maxRejects = 0
    package var costColumns: CostColumnMap = [:]
    package var consumptionPolicy = ConsumptionPolicy()
    /// Write a report of a window that holds no cost row and no App Store data (else an error).
    package var allowEmpty = false
    /// The journal of `respond` (`--journal`): whether each consumption request was answered in time.
    package var journal: String?
    /// Threads reading cost files (default: every core).
    package var threads = FileSystem.processorCount
    /// The process ends once the report is written (the command line, not a test or a library
    /// caller): the ledger is then left for the system to take back (`ProcessLifetime`).
    package var endsProcess = false

    package init(data: String, out: String, window: ReportWindow, appStore: LedgerLoad.Options? = nil) {
        self.data = data
        self.out = out
        self.window = window
        self.appStore = appStore ?? LedgerLoad.Options(asOf: window.end)
    }

    /// Data Apple signed after this is ignored: the run's one as-of time, the ledger's.
    package var asOf: Timestamp {
        get { appStore.asOf }
        set { appStore.asOf = newValue }
    }
}
