/// Where a record came from, for rejects, conflicts and `explain`.
package struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    package var file: String
    package var line: Int

    package init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line) < (rhs.file, rhs.line)
    }

    package var description: String { "\(file):\(line)" }
}
