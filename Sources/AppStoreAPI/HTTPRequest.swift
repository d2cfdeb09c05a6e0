/// One HTTP request: what the App Store Server API is asked.
package struct HTTPRequest: Sendable {
    package var method: String
    package var url: String
    package var headers: [(String, String)]
    package var body: [UInt8]

    package init(method: String, url: String, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
