import Testing

@testable import Ingest
@testable import Support

/// Which records a run reads: its environment first, then its as-of time.
@Suite("App Store admission")
struct AppStoreAdmissionTests {
    let asOf = Timestamp(milliseconds: 1_762_000_000_000)

    func admission(_ environment: AppStoreEnvironment, unlabeled: AppStoreEnvironment? = nil) -> AppStoreAdmission {
        var options = AppStoreOptions(environment: environment, asOf: asOf)
        options.unlabeledEnvironment = unlabeled
        return AppStoreAdmission(options: options)
    }

    @Test func aRecordOfTheRunsEnvironmentSignedByTheAsOfTimeIsRead() {
        #expect(admission(.production).verdict(environment: "Production", signed: asOf) == .admitted)
        #expect(admission(.sandbox).verdict(environment: "Sandbox", signed: Timestamp(milliseconds: 0)) == .admitted)
    }

    @Test func oneSignedAfterTheAsOfTimeIsLeftOut() {
        let later = Timestamp(milliseconds: asOf.milliseconds + 1)
        #expect(admission(.production).verdict(environment: "Production", signed: later) == .signedAfterAsOf)
    }

    /// Another environment is said before the time: a sandbox copy signed later counts as sandbox.
    @Test func anotherEnvironmentIsJudgedFirst() {
        let later = Timestamp(milliseconds: asOf.milliseconds + 1)
        #expect(admission(.production).verdict(environment: "Sandbox", signed: later) == .otherEnvironment("Sandbox"))
        #expect(admission(.production).verdict(environment: "production", signed: asOf) == .otherEnvironment("production"))
    }

    /// Data that names no environment belongs only where --unlabeled-environment puts it.
    @Test func dataThatNamesNoEnvironmentIsReadOnlyWhereTheUserSays() {
        #expect(admission(.production).verdict(environment: nil, signed: asOf) == .otherEnvironment("(none)"))
        #expect(admission(.production, unlabeled: .production).verdict(environment: nil, signed: asOf) == .admitted)
        let elsewhere = admission(.sandbox, unlabeled: .production)
        #expect(elsewhere.verdict(environment: nil, signed: asOf) == .otherEnvironment("(none)"))
    }
}
