import AppStoreAPI
import Ingest
import Support

/// Google's Play Developer API: every call goes through `call`, with an access token the
/// service account's signed assertion was exchanged for (kept in memory, renewed before it
/// expires or once when Google refuses it), backing off with jitter on 5xx, 408 and network
/// errors and waiting out 429, never past the call's deadline.
///
/// The key, the assertion, the access token and the Authorization header are never in any
/// value this returns.
package final class PlayDeveloperAPI: ListingAPI {
    package let baseURL: String
    /// Where assertions are exchanged: Google's endpoint, or `BASE/token` under `--api-url`.
    package let tokenURL: String
    private let account: ServiceAccount
    private let http: HTTPClient
    private let maxWait: Double
    private var accessToken: (value: String, expires: Timestamp)?
    /// Every access token of the run and the assertions it sent: hidden from every message.
    private var secrets: [String] = []
    /// Google's host for the API.
    package static let production = "https://androidpublisher.googleapis.com"

    /// `override` is `--api-url` (checked as Apple's is): the API and the token endpoint both there.
    package init(account: ServiceAccount, override: String?, maxWait: Double) throws(PlayAPIError) {
        self.account = account
        baseURL = override ?? Self.production
        tokenURL = override.map { $0 + "/token" } ?? ServiceAccount.tokenURL
        self.maxWait = maxWait
        do {
            http = try HTTPClient()
        } catch {
            throw .client(error.description)
        }
    }

    package var owner: String { "Google" }

    package func unauthorized(status: Int, message: String?) -> String {
        "Google refused the service account (\(status))" + (message.map { ": \($0)" } ?? "")
            + ": check that --service-account is this app's key file and that the account is invited in Play Console "
            + "(Users and permissions) with access to this app's orders and financial data"
    }

    package func refusalAdvice(status: Int) -> String? {
        status == 404
            ? "check --package-name: the app's, as Play Console shows it, and one the service account has access to" : nil
    }

    /// What an assertion of this client claims, for `--dry-run` (never the assertion).
    package var assertionDescription: String { account.describeAssertion(now: Clock.now(), audience: tokenURL) }

    package func shown(_ text: String) -> String {
        var hidden = text
        for secret in secrets where !secret.isEmpty { hidden = hidden.replacing(secret, with: "<a token, not shown>") }
        return ResponseVerdict.inline(hidden)
    }

    package func holdsSecret(_ bytes: [UInt8]) -> Bool {
        secrets.contains { secret in bytes.firstRange(of: Array(secret.utf8)) != nil }
    }

    package func page(_ method: String, _ path: String, body: [UInt8], deadline: Timestamp) throws -> APIOutcome {
        try call(method, path, body: body, deadline: deadline)
    }

    /// One call with its retries; what each response means is `GoogleVerdict`'s to say.
    package func call(_ method: String, _ path: String, body: [UInt8], deadline: Timestamp) throws(PlayAPIError) -> APIOutcome {
        let started = Clock.monotonicSeconds()
        var attempt = 0
        var lastFailure = "no attempt"
        var rateLimited = 0
        var lastStatus: Int?
        var renewed = false
        func left() -> Double {
            min(Double(deadline.milliseconds - Clock.now().milliseconds) / 1000, maxWait - (Clock.monotonicSeconds() - started))
        }
        while true {
            attempt += 1
            guard left() > 0 else {
                return .failed(reason: "the deadline passed: " + lastFailure, status: lastStatus, errorCode: nil)
            }
            var wait: Double
            switch try currentToken(timeout: left()) {
            case .failure(let failure):
                guard case .failed(let reason, let status, _) = failure.outcome else { return failure.outcome }
                lastFailure = reason
                lastStatus = status
                wait = Retrying.backoff(attempt)
            case .success(let token):
                var headers = [("Authorization", "Bearer " + token), ("Accept", "application/json")]
                if !body.isEmpty { headers.append(("Content-Type", "application/json")) }
                let result = http.send(
                    HTTPRequest(method: method, url: baseURL + path, headers: headers, body: body), timeout: min(30, left()))
                switch result {
                case .failure(let failure):
                    lastFailure = failure.description
                    lastStatus = nil
                    wait = Retrying.backoff(attempt)
                case .success(let response):
                    lastStatus = response.status
                    switch GoogleVerdict.of(
                        status: response.status, headers: response.headers, body: response.body, hiding: secrets)
                    {
                    case .accepted:
                        return .accepted(response)
                    case .unauthorized(let message):
                        // A token Google no longer takes is renewed once; refused again, the account is wrong.
                        if response.status == 401 && !renewed {
                            renewed = true
                            accessToken = nil
                            attempt -= 1
                            continue
                        }
                        return .unauthorized(status: response.status, errorCode: nil, message: message)
                    case .refused(let message):
                        return .refused(status: response.status, errorCode: nil, message: message)
                    case .rateLimited(let seconds):
                        lastFailure = "rate limited (429)"
                        wait = max(Retrying.shortestRateWait, seconds ?? Retrying.backoff(attempt))
                        // Waiting for Google's window is not a failed attempt, but only so many are waited.
                        rateLimited += 1
                        if rateLimited < Retrying.rateLimitedWaits { attempt -= 1 }
                    case .retry(let reason):
                        lastFailure = reason
                        wait = Retrying.backoff(attempt)
                    }
                }
            }
            if let end = Retrying.giveUp(
                attempt: attempt, wait: wait, left: left(), lastFailure: lastFailure, status: lastStatus,
                errorCode: nil)
            {
                return end
            }
            Clock.sleep(seconds: wait)
        }
    }

    /// The access token, exchanged for a fresh assertion when there is none or it expires soon.
    ///
    /// Soon is within a minute. A failure holding `.failed` is no answer, to try again; any
    /// other failure is final.
    private func currentToken(timeout: Double) throws(PlayAPIError) -> Result<String, TokenFailure> {
        let now = Clock.now()
        if let accessToken, accessToken.expires > now.adding(.minutes(1)) { return .success(accessToken.value) }
        let assertion = try account.assertion(now: now, audience: tokenURL)
        secrets.append(assertion)
        let form =
            "grant_type=" + Self.formEscaped("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion="
            + Self.formEscaped(assertion)
        let result = http.send(
            HTTPRequest(
                method: "POST", url: tokenURL,
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                body: Array(form.utf8)), timeout: min(30, timeout))
        switch result {
        case .failure(let failure):
            return .failure(
                TokenFailure(.failed(reason: "the token endpoint: " + failure.description, status: nil, errorCode: nil)))
        case .success(let response):
            switch TokenResponse.read(response, hiding: secrets) {
            case .issued(let token, let seconds):
                secrets.append(token)
                accessToken = (token, now.adding(TimeSpan(milliseconds: seconds * 1000)))
                return .success(token)
            case .refused(let message):
                return .failure(TokenFailure(.unauthorized(status: response.status, errorCode: nil, message: message)))
            case .retry(let reason):
                return .failure(
                    TokenFailure(.failed(reason: "the token endpoint: " + reason, status: response.status, errorCode: nil)))
            }
        }
    }

    private struct TokenFailure: Error {
        var outcome: APIOutcome
        init(_ outcome: APIOutcome) { self.outcome = outcome }
    }

    /// `application/x-www-form-urlencoded`'s escape: letters, digits and `-._~` as they are.
    static func formEscaped(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                escaped += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return escaped
    }

    /// A path segment or query value, percent-encoded as a form value is.
    package static func component(_ text: String) -> String { formEscaped(text) }
}
