import Ingest
import Support

/// The App Store Server API: every call goes through `call`, which signs a fresh token, keeps
/// the rate under Apple's 50 requests per second, honours `Retry-After` on 429 and backs off
/// with jitter on 5xx and network errors, never past the call's deadline.
///
/// The key, the token and the Authorization header are never in any value this returns.
package final class AppStoreServerAPI {
    package let baseURL: String
    private let credentials: APICredentials
    private let http: HTTPClient
    /// The longest a call waits in all (`--max-wait`).
    private let maxWait: Double
    private var lastStart = 0.0
    /// Attempts for 5xx and network errors, the first included.
    package static let attempts = 4
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
        try call(
            "PUT", "/inApps/v2/transactions/consumption/" + Self.pathComponent(transactionID), body: body, deadline: deadline)
    }

    /// What a token of this client claims, for `--dry-run` (never the token).
    package var tokenDescription: String { credentials.describeToken(now: Clock.now()) }

    package static func consumptionPath(_ transactionID: String) -> String {
        "/inApps/v2/transactions/consumption/" + pathComponent(transactionID)
    }

    /// One call with its retries.
    package func call(_ method: String, _ path: String, body: [UInt8], deadline: Timestamp) throws(APIError) -> APIOutcome {
        let started = Clock.monotonicSeconds()
        var attempt = 0
        var lastFailure = "no attempt"
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
                wait = backoff(attempt)
            case .success(let response):
                let error = AppleError(response.body)
                lastStatus = response.status
                lastCode = error.code
                switch response.status {
                case 200..<300:
                    return .accepted(response)
                case 401:
                    return .unauthorized(status: 401, errorCode: error.code, message: error.message)
                case 429:
                    lastFailure = "rate limited (429)"
                    wait = Self.retryAfter(response.headers["retry-after"], now: Clock.now()) ?? backoff(attempt)
                    // Waiting for Apple's window is not a failed attempt.
                    attempt -= 1
                case 500..<600:
                    lastFailure = "Apple answered \(response.status)" + (error.code.map { " (\($0))" } ?? "")
                    wait = backoff(attempt)
                default:
                    if error.code == 5_000_001 {
                        lastFailure = "Apple's general internal error (5000001)"
                        wait = backoff(attempt)
                    } else {
                        return .refused(status: response.status, errorCode: error.code, message: error.message)
                    }
                }
            }
            guard attempt < Self.attempts else {
                return .failed(reason: lastFailure + " after \(attempt) attempts", status: lastStatus, errorCode: lastCode)
            }
            let remaining = min(
                Double(deadline.milliseconds - Clock.now().milliseconds) / 1000, maxWait - (Clock.monotonicSeconds() - started))
            guard wait < remaining else {
                return .failed(
                    reason: lastFailure + "; waiting \(Int(wait.rounded(.up))) s more would pass the deadline or --max-wait",
                    status: lastStatus, errorCode: lastCode)
            }
            Clock.sleep(seconds: wait)
        }
    }

    /// Exponential backoff with jitter: about 0.5, 1, 2 s, each between half and all of it again.
    private func backoff(_ attempt: Int) -> Double {
        let base = 0.5 * Double(1 << min(attempt - 1, 6))
        return base * Double.random(in: 0.5...1.5)
    }

    /// Keeps calls at least `spacing` apart.
    private func pace() {
        let now = Clock.monotonicSeconds()
        let next = lastStart + Self.spacing
        if now < next { Clock.sleep(seconds: next - now) }
        lastStart = Clock.monotonicSeconds()
    }

    /// Apple's `Retry-After` is the time to retry at, in milliseconds since 1970; a small number
    /// is read as the HTTP form, seconds to wait.
    static func retryAfter(_ value: String?, now: Timestamp) -> Double? {
        guard let value, let number = Int64(value.trimmingSpaces), number >= 0 else { return nil }
        if number > 100_000_000_000 { return max(0, Double(number - now.milliseconds) / 1000) }
        return Double(number)
    }

    /// A transaction id or a page token, percent-encoded but for letters, digits and `-_.`: never
    /// trusted raw in a path or a query (the same escape names the files fetch writes).
    package static func pathComponent(_ text: String) -> String { CutHistory.escaped(text) }
}
