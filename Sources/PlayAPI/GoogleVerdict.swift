import AppStoreAPI
import Ingest
import Support

/// What one response of the Play Developer API means for the call that got it: Google's final
/// word on the request, or a reason to try again.
///
/// Only Google may refuse a request: a refusal is Google's error body (`{"error": {"code",
/// "message", "status"}}`) on a 4xx. Anything else (a proxy's page, a wrong path, a redirect,
/// a body that is not Google's JSON) is no answer, and the request goes again. Redirects are
/// never followed, so the token never travels to another host.
package enum GoogleVerdict: Sendable, Hashable {
    case accepted
    case refused(message: String?)
    /// 401 or 403: the token, or the service account's access to the app.
    case unauthorized(message: String?)
    /// 429: wait (`Retry-After` seconds when Google said), then try again.
    case rateLimited(waitSeconds: Double?)
    case retry(reason: String)

    /// `hiding`: the secrets of the request (its token), never quoted from what came back.
    package static func of(status: Int, headers: [String: String], body: [UInt8], hiding secrets: [String]) -> GoogleVerdict {
        let error = GoogleError(body)
        func shown(_ text: [UInt8]) -> String { Self.quoted(text, hiding: secrets) }
        switch status {
        case 200..<300:
            return .accepted
        case 429:
            return .rateLimited(waitSeconds: retryAfter(headers["retry-after"]))
        case 300..<400:
            let target = headers["location"].map { " to \(shown(Array($0.utf8)))" } ?? ""
            return .retry(reason: "HTTP \(status), a redirect\(target), not followed (the token goes to Google only)")
        default:
            break
        }
        guard let error else {
            return .retry(
                reason: "HTTP \(status) that is not Google's answer (no error object): "
                    + (body.isEmpty ? "an empty body" : "body \(shown(body))"))
        }
        let message = error.text.map { shown(Array($0.utf8)) }
        if status == 401 || status == 403 { return .unauthorized(message: message) }
        if status == 408 || status >= 500 || status < 400 {
            return .retry(reason: "HTTP \(status), Google error" + (message.map { ": \($0)" } ?? ""))
        }
        return .refused(message: message)
    }

    /// `Retry-After` in whole seconds, as HTTP writes it, up to an hour; anything else (a date,
    /// a fraction, `inf`) is no advice, and the backoff decides.
    static func retryAfter(_ value: String?) -> Double? {
        guard let value, let seconds = Int(value.trimmingSpaces), (0...3600).contains(seconds) else { return nil }
        return Double(seconds)
    }

    /// What a server sent, cut short and printable, every secret of `hiding` said as one.
    static func quoted(_ bytes: [UInt8], hiding secrets: [String]) -> String {
        var text = String(decoding: bytes.prefix(16 * ResponseVerdict.quotedBytes), as: UTF8.self)
        for secret in secrets where !secret.isEmpty { text = text.replacing(secret, with: "<a token, not shown>") }
        return ResponseVerdict.quoted(Array(text.utf8))
    }
}

/// Google's error body: `{"error": {"code": 400, "message": "...", "status": "INVALID_ARGUMENT"}}`.
struct GoogleError {
    var code: Int64?
    var message: String?
    var status: String?

    /// nil when `body` is not Google's error.
    init?(_ body: [UInt8]) {
        var found: GoogleError?
        try? body.withUnsafeBytes { raw in
            var cursor = JSONCursor(raw)
            try cursor.members { cursor, key in
                guard key == "error", cursor.isObject() else { return try cursor.skip() }
                var error = GoogleError(code: nil, message: nil, status: nil)
                try cursor.members { cursor, key in
                    if key == "code" {
                        error.code = try cursor.integer()
                    } else if key == "message" {
                        error.message = try cursor.optionalString()
                    } else if key == "status" {
                        error.status = try cursor.optionalString()
                    } else {
                        try cursor.skip()
                    }
                }
                found = error
            }
        }
        guard let found, found.code != nil || found.status != nil else { return nil }
        self = found
    }

    private init(code: Int64?, message: String?, status: String?) {
        self.code = code
        self.message = message
        self.status = status
    }

    /// `STATUS: message`, as a person reads it.
    var text: String? {
        switch (status, message) {
        case (let status?, let message?): "\(status): \(message)"
        case (let status?, nil): status
        case (nil, let message?): message
        case (nil, nil): nil
        }
    }
}

/// What the token endpoint answered: a token, a refusal of the assertion, or no answer.
enum TokenResponse {
    case issued(token: String, expiresInSeconds: Int64)
    /// OAuth's error body (`{"error": "invalid_grant", "error_description": ...}`) on a 4xx.
    case refused(message: String)
    case retry(reason: String)

    static func read(_ response: HTTPResponse, hiding secrets: [String]) -> TokenResponse {
        var token: String?
        var expires: Int64?
        var error: String?
        var description: String?
        let parsed: Bool =
            (try? response.body.withUnsafeBytes { raw -> Bool in
                var cursor = JSONCursor(raw)
                try cursor.members { cursor, key in
                    if key == "access_token" {
                        token = try cursor.optionalString()
                    } else if key == "expires_in" {
                        expires = try cursor.optionalLenientInteger()
                    } else if key == "error" {
                        error = cursor.isString() ? try cursor.string() : nil
                        if error == nil { try cursor.skip() }
                    } else if key == "error_description" {
                        description = try cursor.optionalString()
                    } else {
                        try cursor.skip()
                    }
                }
                try cursor.finish()
                return true
            }) ?? false
        let shown = { (text: String) in GoogleVerdict.quoted(Array(text.utf8), hiding: secrets) }
        switch response.status {
        case 200..<300:
            guard parsed, let token, !token.isEmpty else {
                return .retry(reason: "HTTP \(response.status) without an access_token: not Google's answer")
            }
            // A token goes into a header: only what a header can hold (no space, no control byte).
            guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }), token.utf8.count <= 4096 else {
                return .retry(reason: "HTTP \(response.status) with an access_token no header can carry: not Google's answer")
            }
            // Google's tokens last an hour; an answer without a lifetime is taken for five minutes.
            return .issued(token: token, expiresInSeconds: max(0, min(expires ?? 300, 3600)))
        case 400..<500 where response.status != 408 && response.status != 429:
            guard parsed, let error else {
                return .retry(
                    reason:
                        "HTTP \(response.status) that is not Google's answer: \(shown(String(decoding: response.body, as: UTF8.self)))"
                )
            }
            return .refused(message: shown(error) + (description.map { " (\(shown($0)))" } ?? ""))
        default:
            return .retry(reason: "HTTP \(response.status)")
        }
    }
}
