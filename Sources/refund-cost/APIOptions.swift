import AppStoreAPI
import Attribution
import Ingest
import Pipeline
import Support

/// What every command that calls Apple takes.
///
/// The key, its id, the issuer, another host for tests, and how long one call may wait for its
/// retries. The key file must be readable by its
/// owner only.
enum APIOptions {
    static let key = Option.path(
        "key", "FILE", help: "The in-app purchase key from App Store Connect (.p8, readable by you only).")
    static let keyID = Option("key-id", "ID", help: "The key's id (10 characters, in App Store Connect beside the key).")
    static let issuerID = Option(
        "issuer-id", "ID", help: "Your issuer id (a UUID, in App Store Connect's Integrations page).")
    static let apiURL = Option("api-url", "URL", help: "Another base URL (tests; plain http:// only to a loopback address).")
    static let maxWait = Option<TimeSpan>.duration(
        "max-wait", help: "Longest wait for one call's retries (default 10m).", upTo: .hours(12))

    static let specs = [key.spec, keyID.spec, issuerID.spec, apiURL.spec, maxWait.spec]

    /// Apple's host for the environment, or `--api-url` (plain http:// only to a loopback address).
    ///
    /// Xcode's and LocalTesting's data name transactions no Apple server knows: they are
    /// answered only at the local server `--api-url` names, never at Apple's hosts with the
    /// app's real key.
    static func baseURL(_ arguments: ParsedArguments, environment: AppStoreEnvironment) throws(UsageError) -> String {
        let override = try arguments.value(apiURL)
        if environment == .xcode || environment == .localTesting, override.map(APIBase.isApples) ?? true {
            throw .needsAnother(
                "--environment \(environment.rawValue) reads data that only Xcode or a local test server knows, never Apple's "
                    + "hosts: give --api-url with the local server that answers for it (http://127.0.0.1:PORT), or leave "
                    + "--environment out to answer Production's requests",
                command: arguments.command)
        }
        switch APIBase.url(sandbox: environment == .sandbox, override: override) {
        case .success(let url): return url
        case .failure(let error):
            throw arguments.invalid(
                apiURL, text: error.url,
                expected: "an https:// URL, or http:// to a loopback address (127.0.0.1, ::1, localhost)")
        }
    }

    /// `--max-wait`: the longest one call waits in all for its retries, in seconds.
    static func maxWait(_ arguments: ParsedArguments) throws(UsageError) -> Double {
        Double((try arguments.value(maxWait) ?? .minutes(10)).milliseconds) / 1000
    }

    static func credentials(_ arguments: ParsedArguments, bundleID: String?) throws -> APICredentials {
        // Every credential missing is named at once: one run to learn what to give, not four.
        let missing =
            [(key.flag, arguments.text(key)), (keyID.flag, arguments.text(keyID)), (issuerID.flag, arguments.text(issuerID))]
            .filter { $0.1 == nil }.map(\.0) + (bundleID == nil ? ["--bundle-id"] : [])
        if let last = missing.last {
            let named = missing.count == 1 ? last : missing.dropLast().joined(separator: ", ") + " and " + last
            throw UsageError.missingOption(named, command: arguments.command)
        }
        let keyID = try arguments.required(keyID)
        let issuerID = try arguments.required(issuerID)
        guard let bundleID else { throw UsageError.missingOption("--bundle-id", command: arguments.command) }
        let bytes = try KeyFile.read(
            key, arguments, what: ".p8 key file", size: "a few hundred bytes", limit: ECPrivateKey.largestPEM)
        guard let privateKey = ECPrivateKey(pem: bytes) else {
            throw arguments.invalid(
                key, expected: "the in-app purchase key as App Store Connect gives it (.p8: a PKCS#8 PEM P-256 private key)")
        }
        return APICredentials(key: privateKey, keyID: keyID, issuerID: issuerID, bundleID: bundleID)
    }
}
