import Support

/// Apple's deadline for the answer to a CONSUMPTION_REQUEST.
///
/// 12 hours after the request's `signedDate`; every figure, the journal and `respond` read it here.
package enum ConsumptionDeadline {
    package static let window = TimeSpan.hours(12)

    /// When the answer to a request signed at `signedAt` is due.
    package static func of(_ signedAt: Timestamp) -> Timestamp { signedAt.adding(window) }
}
