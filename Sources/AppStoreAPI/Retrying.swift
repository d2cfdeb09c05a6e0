import Support

/// What both stores' clients do between one attempt of a call and the next.
package enum Retrying {
    /// Attempts for 5xx and network errors, the first included.
    package static let attempts = 4
    /// A 429 is waited at least this long (a `Retry-After: 0` would be a busy loop), and at most
    /// this many times a call before it counts as a failed attempt.
    package static let shortestRateWait = 1.0
    package static let rateLimitedWaits = 30

    /// Exponential backoff with jitter: about 0.5, 1, 2 s, each between half and all of it again.
    package static func backoff(_ attempt: Int) -> Double {
        0.5 * Double(1 << min(attempt - 1, 6)) * Double.random(in: 0.5...1.5)
    }

    /// The call's end when attempt `attempt` was the last, or waiting `wait` would pass what is
    /// `left` of its time; nil when it waits and goes again.
    package static func giveUp(attempt: Int, wait: Double, left: Double, lastFailure: String, status: Int?, errorCode: Int?)
        -> APIOutcome?
    {
        guard attempt < attempts else {
            return .failed(reason: lastFailure + " after \(attempt) attempts", status: status, errorCode: errorCode)
        }
        guard wait < left else {
            return .failed(
                reason: lastFailure + "; waiting \(Int(wait.rounded(.up))) s more would pass the deadline or --max-wait",
                status: status, errorCode: errorCode)
        }
        return nil
    }
}
