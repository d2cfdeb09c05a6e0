/// What came back: the status, the headers the client needs, and the body (at most 1 MiB).
package struct HTTPResponse: Sendable {
    package var status: Int
    /// Header names in lower case.
    package var headers: [String: String]
    package var body: [UInt8]
}
