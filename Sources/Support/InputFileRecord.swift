/// An input file as `run.json` and the report page list it: its path relative to the data
/// folder, its size as stored, and its SHA-256.
package struct InputFileRecord: Sendable, Hashable, Codable {
    package var path: String
    package var bytes: Int
    package var sha256: String

    package init(path: String, bytes: Int, sha256: String) {
        self.path = path
        self.bytes = bytes
        self.sha256 = sha256
    }
}
