import Ingest
import Support

/// The App Store Server API: every call goes through `call`, which signs a fresh token, keeps
/// the rate under Apple's 50 requests per second, honours `Retry-After` on 429 and backs off
/// with jitter on 5xx and network errors, never past the call's deadline.
///
/// The key, the token and the Authorization header are never in any value this returns.
package final class AppStoreServerAPI: ListingAPI {
    package let baseURL: String
    private let credentials: APICredentials
    private let http: HTTPClient
    /// The longest a call waits in all (`--max-wait`).
    private let maxWait: Double
    private var lastStart = 0.0
    /// At most 40 calls a second: under Apple's 50 with room for clock drift.
    static let spacing = 1.0 / 40

    package init(credentials: APICredentials, baseURL: String, maxWait: Double) throws(APIError) {
        self.credentials = credentials
        self.baseURL = baseURL
        self.maxWait = maxWait
        do {
            http = try HTTPClient()
        } catch {
            throw .client(error.description)
        }
    }

    /// `PUT /inApps/v2/transactions/consumption/{transactionId}` (Send Consumption Information).
    package func sendConsumption(transactionID: String, body: [UInt8], deadline: Timestamp) throws(APIError) -> APIOutcome {
        // Apple answers 202 Accepted; any other success is not Apple's answer.
        try call(
            "PUT", "/inApps/v2/transactions/consumption/" + Self.pathComponent(transactionID), body: body, deadline: deadline,
            accepting: 202)
    }

    package var owner: String { "Apple" }
    package func unauthorized(status: Int, message: String?) -> String {
        "Apple refused the token (\(status)): check --key-id and --issuer-id, and that --key is this app's in-app purchase "
            + "key and --bundle-id its bundle id"
    }

    package func refusalAdvice(status: Int) -> String? { nil }

    package func shown(_ text: String) -> String { ResponseVerdict.inline(text) }

    /// Apple's tokens are made for one request and its pages hold JWS of their own: nothing to look for.
    package func holdsSecret(_ bytes: [UInt8]) -> Bool { false }

    package func page(_ method: String, _ path: String, body: [UInt8], deadline: Timestamp) throws(APIError) -> APIOutcome {
        try call(method, path, body: body, deadline: deadline)
    }

    /// What a token of this client claims, for `--dry-run` (never the token).
    package var tokenDescription: String { credentials.describeToken(now: Clock.now()) }

    package static func consumptionPath(_ transactionID: String) -> String {
        "/inApps/v2/transactions/consumption/" + pathComponent(transactionID)
    }

    /// One call with its retries: what each response means is `ResponseVerdict`'s to say.
    ///
    /// `accepting`: the one success status the call's documentation names (nil: any 2xx).
    package func call(
        _ method: String, _ path: String, body: [UInt8], deadline: Timestamp, accepting: Int? = nil
    ) throws(APIError) -> APIOutcome {
        let started = Clock.monotonicSeconds()
        var attempt = 0
        var lastFailure = "no attempt"
        var rateLimited = 0
        var lastStatus: Int?
        var lastCode: Int?
        while true {
            attempt += 1
            pace()
            let token = try credentials.token(now: Clock.now())
            var headers = [("Authorization", "Bearer " + token), ("Accept", "application/json")]
            if !body.isEmpty { headers.append(("Content-Type", "application/json")) }
            let left = min(
                Double(deadline.milliseconds - Clock.now().milliseconds) / 1000, maxWait - (Clock.monotonicSeconds() - started))
            guard left > 0 else {
                return .failed(reason: "the deadline passed: " + lastFailure, status: lastStatus, errorCode: lastCode)
            }
            let result = http.send(
                HTTPRequest(method: method, url: baseURL + path, headers: headers, body: body), timeout: min(30, left))
            var wait: Double
            switch result {
            case .failure(let failure):
                lastFailure = failure.description
                lastStatus = nil
                lastCode = nil
                wait = Retrying.backoff(attempt)
            case .success(let response):
                lastStatus = response.status
                lastCode = AppleError(response.body).code
                switch ResponseVerdict.of(
                    status: response.status, headers: response.headers, body: response.body, now: Clock.now(),
                    accepting: accepting)
                {
                case .accepted:
                    return .accepted(response)
                case .unauthorized(let code, let message):
                    return .unauthorized(status: response.status, errorCode: code, message: message)
                case .refused(let code, let message):
                    return .refused(status: response.status, errorCode: code, message: message)
                case .rateLimited(let seconds):
                    lastFailure = "rate limited (429)"
                    wait = max(Retrying.shortestRateWait, seconds ?? Retrying.backoff(attempt))
                    // Waiting for Apple's window is not a failed attempt, but only so many are waited.
                    rateLimited += 1
                    if rateLimited < Retrying.rateLimitedWaits { attempt -= 1 }
                case .retry(let reason):
                    lastFailure = reason
                    wait = Retrying.backoff(attempt)
                }
            }
            if let end = Retrying.giveUp(
                attempt: attempt, wait: wait,
                left: min(
                    Double(deadline.milliseconds - Clock.now().milliseconds) / 1000,
                    maxWait - (Clock.monotonicSeconds() - started)), lastFailure: lastFailure, status: lastStatus,
                errorCode: lastCode)
            {
                return end
            }
            Clock.sleep(seconds: wait)
        }
    }

    /// Keeps calls at least `spacing` apart.
    private func pace() {
        let now = Clock.monotonicSeconds()
        let next = lastStart + Self.spacing
        if now < next { Clock.sleep(seconds: next - now) }
        lastStart = Clock.monotonicSeconds()
    }

    /// A transaction id or a page token, percent-encoded but for letters, digits and `-_.`: never
    /// trusted raw in a path or a query (the same escape names the files fetch writes).
    package static func pathComponent(_ text: String) -> String { CutHistory.escaped(text) }
}
