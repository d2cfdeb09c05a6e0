import Ingest
import Support

/// Why there is no state to go on from.
enum StateMismatchError: Error, Equatable {
    /// No state yet.
    case none
    case reason(String)
}
