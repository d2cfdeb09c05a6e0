import Support

/// Which App Store records a run reads: those of its environment (data that names none only
/// where the user says it belongs, `--unlabeled-environment`) signed by its as-of time.
package struct AppStoreAdmission: Sendable {
    let options: AppStoreOptions

    enum Verdict: Sendable, Equatable {
        case admitted
        /// Of another environment, named as the counts name it (`(none)` when it names none).
        case otherEnvironment(String)
        case signedAfterAsOf
    }

    /// The verdict on a record of environment `raw` (nil: it names none) signed at `signed`; the
    /// environment is judged first.
    func verdict(environment raw: String?, signed: Timestamp) -> Verdict {
        if let raw {
            if raw != options.environment.rawValue { return .otherEnvironment(raw) }
        } else if options.unlabeledEnvironment != options.environment {
            return .otherEnvironment("(none)")
        }
        return signed > options.asOf ? .signedAfterAsOf : .admitted
    }

    /// True when the notification belongs to the environment read with `options` (a refund
    /// request of another is not this run's to answer).
    package static func admits(_ decoded: DecodedNotification, options: AppStoreOptions) -> Bool {
        let raw = decoded.notification.rawEnvironment ?? decoded.transaction?.rawEnvironment
        let admission = AppStoreAdmission(options: options)
        guard case .otherEnvironment = admission.verdict(environment: raw, signed: options.asOf) else { return true }
        return false
    }
}
