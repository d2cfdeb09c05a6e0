import Support

/// What reading one cost file found.
package struct CostFileSummary: Sendable, Hashable, Codable {
    package var path: String
    package var bytes: Int
    /// Data rows (the header excluded).
    package var rows = 0
    package var accepted = 0
    package var rejected = 0
    package var duplicates = 0
    /// Repeated request ids whose rows differ otherwise (counted in `duplicates` too).
    package var conflicts = 0
    /// Repeated request ids of rows a pool pays for (counted in `duplicates` too).
    ///
    /// Which copy counts moves the pool's last left-over steps, so a parallel run reads again in
    /// file order.
    package var pooledRepeats = 0
    package var acceptedCost = CostTotals()
    package var rejectedCost = CostTotals()
    package var duplicateCost = CostTotals()
    /// Ids this reading claimed first, in reading order, when the registry records them.
    package var claims = BlockList<RequestClaim>()
    /// Ids of the rows dropped as repeats (or conflicts), when the registry records them:
    /// respond's state reads these rows again when the file that claimed the id changes.
    package var repeats: [RequestEntry] = []
    /// The earliest and latest accepted row: which months the data holds.
    package var earliest: Timestamp?
    package var latest: Timestamp?

    /// `pooledRepeats` is left out: it matters only to the reading that counts it (the files
    /// that keep summaries, partials and respond's state, come from readings without pools).
    private enum CodingKeys: String, CodingKey {
        case path, bytes, rows, accepted, rejected, duplicates, conflicts, acceptedCost, rejectedCost, duplicateCost
        case claims, repeats, earliest, latest
    }

    mutating func note(_ time: Timestamp) {
        if earliest.map({ time < $0 }) ?? true { earliest = time }
        if latest.map({ time > $0 }) ?? true { latest = time }
    }

    package init(path: String, bytes: Int) {
        self.path = path
        self.bytes = bytes
    }

    /// Adds the counts of another part of the same file.
    package mutating func merge(_ other: CostFileSummary) throws(MoneyError) {
        rows += other.rows
        accepted += other.accepted
        if let time = other.earliest { note(time) }
        if let time = other.latest { note(time) }
        rejected += other.rejected
        duplicates += other.duplicates
        conflicts += other.conflicts
        pooledRepeats += other.pooledRepeats
        try acceptedCost.add(other.acceptedCost)
        try rejectedCost.add(other.rejectedCost)
        try duplicateCost.add(other.duplicateCost)
        claims += other.claims
        repeats += other.repeats
    }
}
