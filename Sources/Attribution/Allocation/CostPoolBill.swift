import Ingest
import Support

/// The FOCUS files of `costs/` and `allocation.csv`, read before any usage row: the pool rows
/// each allocation line takes, those none takes, and the rows that could not be read.
struct CostPoolBill: Sendable {
    package let files: Set<String>
    package let index: PoolIndex
    /// Usage categories some pool is spread over: their rows may come without a cost.
    package let categories: Set<String>
    package let rules: AllocationRules
    /// Pool rows no allocation line takes (unallocated, with the reason).
    package let left: [PoolRow]
    /// Per bill file: rows read, taken, rejected.
    package let summaries: [CostFileSummary]
    package let rejects: [Reject]
    private let ordered: [String]
    private let root: String

    package init(_ paths: [String], root: String) throws {
        ordered = paths
        files = Set(paths)
        self.root = root
        guard !paths.isEmpty else {
            index = PoolIndex(pools: [])
            categories = []
            rules = AllocationRules()
            left = []
            summaries = []
            rejects = []
            return
        }
        let rules = try AllocationRules(dataFolder: root)
        var pools: [CostPool] = []
        var left: [PoolRow] = []
        var summaries: [CostFileSummary] = []
        var rejects: [Reject] = []
        for path in paths {
            let read = try FocusPoolFile.read(path: path)
            var summary = CostFileSummary(path: path, bytes: FileSystem.fileSize(path) ?? 0)
            summary.rows = read.lines
            rejects += read.rejects
            for row in read.rows {
                guard let line = try rules.line(for: row) else {
                    left.append(row)
                    continue
                }
                guard let amount = row.cost(line.cost) else {
                    rejects.append(
                        Reject(
                            file: path, line: row.line, field: line.cost.rawValue, value: "",
                            reason:
                                "line \(line.line) of allocation.csv takes \(line.cost.rawValue), and this row has none: "
                                + "give it, or take the other cost in the line's cost column"))
                    continue
                }
                pools.append(CostPool(row: row, line: line, amount: amount))
            }
            summary.rejected = rejects.filter { $0.file == path }.count
            summary.accepted = summary.rows - summary.rejected
            summaries.append(summary)
        }
        index = PoolIndex(pools: pools)
        categories = rules.categories
        self.rules = rules
        self.left = left
        self.summaries = summaries
        self.rejects = rejects
    }

    /// What became of every pool row, after the usage rows were read with `plan`.
    package func outcome(plan: AllocationPlan?, allocated: [Int64]) throws -> PoolAllocation {
        try PoolAllocation(
            pools: index.pools, plan: plan, allocated: allocated, left: left, rules: rules, poolFiles: ordered, root: root)
    }
}
