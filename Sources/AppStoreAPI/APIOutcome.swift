/// How one call ended, after its retries.
package enum APIOutcome: Sendable {
    /// 2xx: Apple took it.
    case accepted(HTTPResponse)
    /// 4xx other than 401 and 429: Apple refused this request; others go on.
    case refused(status: Int, errorCode: Int?, message: String?)
    /// 401: the key, its id or the issuer id is wrong; nothing else will work either.
    case unauthorized(status: Int, errorCode: Int?, message: String?)
    /// No answer worth keeping after the retries (5xx, 5000001, network, 429 past the deadline).
    case failed(reason: String, status: Int?, errorCode: Int?)
}
