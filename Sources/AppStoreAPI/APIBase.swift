/// Apple's hosts, and the override for tests.
package enum APIBase {
    package static let production = "https://api.storekit.apple.com"
    package static let sandbox = "https://api.storekit-sandbox.apple.com"

    /// The base URL for `environment`, or `override` (`--api-url`): plain `http://` only to a
    /// loopback address, so a token never crosses a network in clear text.
    package static func url(sandbox useSandbox: Bool, override: String?) -> Result<String, BaseURLError> {
        guard let override else { return .success(useSandbox ? sandbox : production) }
        var url = override
        while url.hasSuffix("/") { url.removeLast() }
        if url.hasPrefix("https://") { return .success(url) }
        guard url.hasPrefix("http://") else { return .failure(BaseURLError(url: override)) }
        let rest = url.dropFirst("http://".count)
        let host = rest.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
        let name =
            host.hasPrefix("[") ? String(host.prefix { $0 != "]" }.dropFirst()) : String(host.split(separator: ":").first ?? "")
        let loopback = name == "localhost" || name == "::1" || name.hasPrefix("127.")
        return loopback ? .success(url) : .failure(BaseURLError(url: override))
    }
}

extension APIBase {
    /// True when `url` is one of Apple's hosts (or any host under apple.com).
    package static func isApples(_ url: String) -> Bool {
        let rest = url.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? ""
        let host = rest.split(separator: ":").first.map { $0.lowercased() } ?? ""
        return host == "apple.com" || host.hasSuffix(".apple.com")
    }
}

package struct BaseURLError: Error {
    package var url: String
}
