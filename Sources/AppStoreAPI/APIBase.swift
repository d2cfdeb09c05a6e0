/// Apple's hosts, and the override for tests.
package enum APIBase {
    package static let production = "https://api.storekit.apple.com"
    package static let sandbox = "https://api.storekit-sandbox.apple.com"

    /// The base URL for `environment`, or `override` (`--api-url`) as the tool will use it.
    ///
    /// An override is a scheme, a host, a port and a path, and nothing else: no user name, no
    /// query, no fragment, no percent sign, no character a host cannot hold, since each is a
    /// way to make a URL that reads as one host and connects to another. The host is taken
    /// lowercase without a trailing dot, and the URL given on is made from what was checked.
    /// Plain `http://` only to a loopback address, so a token never crosses a network in clear
    /// text.
    package static func url(sandbox useSandbox: Bool, override: String?) -> Result<String, BaseURLError> {
        guard let override else { return .success(useSandbox ? sandbox : production) }
        guard let parsed = BaseURL(override), parsed.secure || parsed.isLoopback else {
            return .failure(BaseURLError(url: override))
        }
        return .success(parsed.text)
    }

    /// True when `url` may reach Apple: a host under apple.com, an address of Apple's network
    /// (17.0.0.0/8, as IPv4 or mapped into IPv6), or a URL that cannot be read as one host.
    package static func isApples(_ url: String) -> Bool {
        guard let parsed = BaseURL(url) else { return true }
        let host = parsed.host
        if host == "apple.com" || host.hasSuffix(".apple.com") { return true }
        return parsed.ipv4.map { $0.first == 17 } ?? false
    }
}

/// An `--api-url` read strictly: `http` or `https`, a host (a name, an IPv4 address or an
/// IPv6 address in brackets), an optional port, an optional path.
struct BaseURL: Equatable {
    var secure: Bool
    /// Lowercase, without a trailing dot; an IPv6 address without its brackets.
    var host: String
    var port: Int?
    /// Without a trailing slash; empty for none.
    var path: String

    init?(_ text: String) {
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            (secure, rest) = (true, Substring(text.dropFirst("https://".count)))
        } else if lower.hasPrefix("http://") {
            (secure, rest) = (false, Substring(text.dropFirst("http://".count)))
        } else {
            return nil
        }
        // Only what a host, a port and a plain path hold.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_~/:[]")
        guard !rest.isEmpty, rest.allSatisfy(allowed.contains) else { return nil }
        let authority = rest.prefix { $0 != "/" }
        var path = String(rest.dropFirst(authority.count))
        while path.hasSuffix("/") { path.removeLast() }
        guard !path.contains("//"), !path.contains("[") && !path.contains("]") && !path.contains(":") else { return nil }
        self.path = path
        var hostPart = Substring(authority)
        var portText: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { return nil }
            let inside = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
            let after = hostPart[hostPart.index(after: close)...]
            guard !inside.isEmpty, inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
            host = inside.lowercased()
        } else {
            let pieces = hostPart.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { return nil }
            hostPart = pieces[0]
            if pieces.count == 2 { portText = pieces[1] }
            var name = hostPart.lowercased()
            while name.hasSuffix(".") { name.removeLast() }
            guard !name.isEmpty, !name.contains(".."), !name.hasPrefix("."),
                name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" })
            else { return nil }
            host = name
        }
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII), let port = Int(portText),
                (1...65535).contains(port)
            else { return nil }
            self.port = port
        }
    }

    /// The URL made from its checked parts.
    var text: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return (secure ? "https://" : "http://") + shownHost + (port.map { ":\($0)" } ?? "") + path
    }

    /// The host as an IPv4 address (dotted, four parts of 0 to 255, or mapped into IPv6).
    var ipv4: [Int]? {
        if host.hasPrefix("::ffff:") { return Self.mapped(String(host.dropFirst("::ffff:".count))) }
        return Self.dotted(host)
    }

    var isLoopback: Bool {
        host == "localhost" || host == "::1" || ipv4?.first == 127
    }

    private static func dotted(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let numbers = parts.compactMap { part -> Int? in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isNumber), part.allSatisfy(\.isASCII) else { return nil }
            return Int(part).flatMap { $0 <= 255 ? $0 : nil }
        }
        return numbers.count == 4 ? numbers : nil
    }

    /// The IPv4 address after `::ffff:`, dotted or as two groups of hex digits.
    private static func mapped(_ text: String) -> [Int]? {
        if let dotted = dotted(text) { return dotted }
        let groups = text.split(separator: ":", omittingEmptySubsequences: false)
        guard groups.count == 2, let high = Int(groups[0], radix: 16), let low = Int(groups[1], radix: 16),
            groups.allSatisfy({ (1...4).contains($0.count) })
        else { return nil }
        return [high >> 8, high & 0xFF, low >> 8, low & 0xFF]
    }
}

package struct BaseURLError: Error {
    package var url: String
}
