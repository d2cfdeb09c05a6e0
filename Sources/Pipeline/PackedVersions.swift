/// The format version of every file the tool writes and reads back later.
///
/// One place, because a change to what one of them holds (a field of a record, a notification
/// fact kept) is a bump here: a file of an older version is then refused or rebuilt, never read
/// as if it were the new one. `PackedFormatTests` holds each format's layout to its version and
/// says which to bump when one changed.
package enum PackedVersions {
    /// `snapshot`'s ledger snapshot (`LedgerSnapshot`).
    package static let ledgerSnapshot = 11
    /// `snapshot --account-groups`'s part of the snapshot for one group (`GroupSnapshot`).
    package static let groupSnapshot = 4
    /// `partial`'s result (`CostPartial`).
    package static let costPartial = 12
    /// A routing partial's cost rows of one group of accounts, beside it (`RoutedRows`).
    package static let routedRows = 1
    /// `decode`'s pieces and `snapshot --decoded`'s record of them (`DecodedFiles`).
    package static let decodedFiles = 6
    /// A partial's request seeds (`PartialSeeds`, in `StepFiles`).
    package static let requestSeeds = 5
    /// `settle`'s record of a request-id partition found settled (`RequestSettlement`).
    package static let requestSettlement = 1
    /// `split`'s pieces of a cost file (`FileSplit`).
    package static let fileSplit = 1
    /// A partial's request ids claimed first, beside it (`PartialClaims`, in `StepFiles`).
    package static let requestClaims = 2
    /// respond's state manifest and what it names (`RespondState`).
    package static let respondState = 4
    /// respond's block sums of its input files (`InputSums`).
    package static let respondInputSums = 1
}
