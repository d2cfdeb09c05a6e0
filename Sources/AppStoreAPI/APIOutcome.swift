/// How one call ended, after its retries.
package enum APIOutcome: Sendable {
    /// 2xx: Apple took it.
    case accepted(HTTPResponse)
    /// Apple refused this request (an Apple error body on a 4xx, `ResponseVerdict.refused`); others go on.
    case refused(status: Int, errorCode: Int?, message: String?)
    /// 401: the key, its id or the issuer id is wrong; nothing else will work either.
    case unauthorized(status: Int, errorCode: Int?, message: String?)
    /// No answer worth keeping after the retries (5xx, Apple's retryable codes, a reply that is
    /// not Apple's, a redirect, network, 429 past the deadline).
    case failed(reason: String, status: Int?, errorCode: Int?)
}
