import Ingest
import Support

/// What one HTTP response means for the call that got it: Apple's final word on the request,
/// or a reason to try again.
///
/// Only Apple may refuse a request: a refusal is an Apple error body (`errorCode`) on a 4xx
/// whose code says the request itself is wrong. Anything else (a proxy's HTML page, a wrong
/// `--api-url` path, a redirect, a body that is not Apple's JSON) is no answer at all, and the
/// request goes again: within its deadline, then by the next run. Redirects are never
/// followed, so the token never travels to another host.
package enum ResponseVerdict: Sendable, Hashable {
    /// 2xx (the status the call's documentation names, when it names one): Apple took it.
    case accepted
    /// Apple says the request is wrong; sending it again changes nothing.
    case refused(errorCode: Int, message: String?)
    /// 401: the key, its id, the issuer id or the bundle id is wrong.
    case unauthorized(errorCode: Int?, message: String?)
    /// 429: wait (`Retry-After` seconds from now when Apple said when), then try again.
    case rateLimited(waitSeconds: Double?)
    /// No answer about the request: try again after a backoff; `reason` goes to the journal.
    case retry(reason: String)

    /// Apple's codes that mean "not found yet, retry" or "internal, retry" (Apple's libraries
    /// retry exactly these): AccountNotFoundRetryable, AppNotFoundRetryable,
    /// OriginalTransactionIdNotFoundRetryable, GeneralInternalRetryable.
    package static let retryableCodes: Set<Int> = [4_040_002, 4_040_004, 4_040_006, 5_000_001]

    /// How much of a body that is not Apple's the reason quotes.
    package static let quotedBytes = 120

    /// `accepting`: the one success status Apple answers this call with (202 for Send
    /// Consumption Information); another 2xx is no answer (a captive portal's 200 page).
    package static func of(
        status: Int, headers: [String: String], body: [UInt8], now: Timestamp, accepting: Int? = nil
    ) -> ResponseVerdict {
        let error = AppleError(body)
        switch status {
        case 200..<300:
            if let accepting, status != accepting {
                let shown = body.isEmpty ? "an empty body" : "body \(quoted(body))"
                return .retry(reason: "HTTP \(status), not the \(accepting) Apple answers this call with: \(shown)")
            }
            return .accepted
        case 401:
            return .unauthorized(errorCode: error.code, message: error.message)
        case 429:
            return .rateLimited(waitSeconds: retryAfter(headers["retry-after"], now: now))
        case 300..<400:
            let target = headers["location"].map { " to \(quoted(Array($0.utf8)))" } ?? ""
            return .retry(reason: "HTTP \(status), a redirect\(target), not followed (the token goes to Apple only)")
        default:
            break
        }
        guard let code = error.code else {
            let shown = body.isEmpty ? "an empty body" : "body \(quoted(body))"
            return .retry(reason: "HTTP \(status) that is not Apple's answer (no errorCode): \(shown)")
        }
        if retryableCodes.contains(code) || status >= 500 || status < 400 {
            return .retry(
                reason: "HTTP \(status), Apple error \(code)" + (error.message.map { ": \(quoted(Array($0.utf8)))" } ?? ""))
        }
        return .refused(errorCode: code, message: error.message)
    }

    /// Apple's `Retry-After` is the time to retry at, in milliseconds since 1970; a small number
    /// is read as the HTTP form, seconds to wait.
    static func retryAfter(_ value: String?, now: Timestamp) -> Double? {
        guard let value, let number = Int64(value.trimmingSpaces), number >= 0 else { return nil }
        if number > 100_000_000_000 { return max(0, Double(number - now.milliseconds) / 1000) }
        return Double(number)
    }

    /// The first bytes of what a server sent, printable: control bytes and invalid UTF-8 as `?`,
    /// a token it echoed never (the reason is journaled and printed).
    package static func quoted(_ bytes: [UInt8]) -> String {
        let text = redactingTokens(String(decoding: bytes.prefix(16 * quotedBytes), as: UTF8.self))
        let cut = bytes.count > 16 * quotedBytes || text.utf8.count > quotedBytes
        let kept = String(decoding: text.utf8.prefix(quotedBytes), as: UTF8.self)
        let shown = String(
            String.UnicodeScalarView(
                kept.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" ? "?" : $0 }))
        return "'" + shown + (cut ? "...'" : "'")
    }

    /// `text` as it is when it is short, printable ASCII and holds no token; else `quoted`.
    package static func inline(_ text: String) -> String {
        let plain =
            text.utf8.count <= quotedBytes && text.utf8.allSatisfy { (0x20...0x7E).contains($0) } && !text.contains("eyJ")
        return plain ? text : quoted(Array(text.utf8))
    }

    /// `text` with every JSON Web Token in it (a run that begins `eyJ`, the encoding of `{"`)
    /// said as one, never shown: a server that echoes the request's headers echoes the token.
    static func redactingTokens(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        func inToken(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
            default: false
            }
        }
        var shown = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if index + 3 <= scalars.count, scalars[index] == "e", scalars[index + 1] == "y", scalars[index + 2] == "J" {
                while index < scalars.count, inToken(scalars[index]) { index += 1 }
                shown.append(contentsOf: "<a token, not shown>".unicodeScalars)
            } else {
                shown.append(scalars[index])
                index += 1
            }
        }
        return String(shown)
    }
}
