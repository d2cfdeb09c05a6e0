import Attribution
import Ingest
import Support

/// What a run was asked to do (`report`, each step of a distributed report, `respond`): its
/// configuration (every option that changes a figure), and where and how to run it.
package struct RunOptions: Sendable {
    package var configuration: RunConfiguration
    package var data: String
    package var out: String
    package var maxRejects = 0
    /// Write a report of a window that holds no cost row and no App Store data (else an error).
    package var allowEmpty = false
    /// The journal of `respond` (`--journal`): whether each consumption request was answered in time.
    package var journal: String?
    /// The journal of `respond --store play` (`--play-journal`): whether each refund review was answered in time.
    package var playJournal: String?
    /// Threads reading cost files (default: every core).
    package var threads = FileSystem.processorCount
    /// Where files already verified are remembered on this machine (nil: verify everything,
    /// remember nothing); no figure depends on it.
    package var verifiedFilesRecord: String?
    /// The process ends once the report is written (the command line, not a test or a library
    /// caller): the ledger is then left for the system to take back (`ProcessLifetime`).
    package var endsProcess = false

    package init(data: String, out: String, configuration: RunConfiguration) {
        self.data = data
        self.out = out
        self.configuration = configuration
    }

    package init(data: String, out: String, window: ReportWindow, appStore: LedgerLoad.Options? = nil) {
        self.init(data: data, out: out, configuration: RunConfiguration(window: window, appStore: appStore))
    }

    // The configuration's parts, as the stages read them.
    package var window: ReportWindow {
        get { configuration.window }
        set { configuration.window = newValue }
    }
    package var appStore: LedgerLoad.Options {
        get { configuration.appStore }
        set { configuration.appStore = newValue }
    }
    package var grace: TimeSpan {
        get { configuration.grace }
        set { configuration.grace = newValue }
    }
    package var costColumns: CostColumnMap {
        get { configuration.costColumns }
        set { configuration.costColumns = newValue }
    }
    package var consumptionPolicy: ConsumptionPolicy {
        get { configuration.consumptionPolicy }
        set { configuration.consumptionPolicy = newValue }
    }

    /// Data Apple signed after this is ignored: the run's one as-of time, the ledger's.
    package var asOf: Timestamp {
        get { appStore.asOf }
        set { appStore.asOf = newValue }
    }
}
