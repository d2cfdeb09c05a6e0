import AppStoreAPI
import Ingest
import Pipeline
import PlayAPI
import Support

/// What every `fetch` from Google Play takes: where to write, the app, the service account.
enum PlayFetchOptions {
    static let data = Option.path(
        "data", "DIR", help: "The input folder to complete (files land in play/voided/ or play/orders/).")
    static let packageName = Option("package-name", "NAME", help: "The app's package name (com.example.app).")
    static let serviceAccount = Option.path(
        "service-account", "FILE", help: "The service account's JSON key file (readable by you only).")
    static let dryRun = Flag(
        "dry-run", help: "Print the requests (and the assertion's claims, never a token); fetch nothing.")

    /// The client, the data folder and the package, from the command line.
    static func client(_ arguments: ParsedArguments) throws -> (PlayDeveloperAPI, data: String, package: String) {
        let data = try arguments.required(Self.data)
        guard FileSystem.kind(data) == .directory else { throw arguments.invalid(Self.data, expected: "an existing folder") }
        let (api, package) = try Self.api(arguments)
        return (api, data, package)
    }

    /// The client and the package, from `--package-name`, `--service-account` and `--api-url`.
    static func api(_ arguments: ParsedArguments) throws -> (PlayDeveloperAPI, package: String) {
        // Both missing are named at once: one run to learn what to give.
        let missing = [(packageName.flag, arguments.text(packageName)), (serviceAccount.flag, arguments.text(serviceAccount))]
            .filter { $0.1 == nil }.map(\.0)
        if !missing.isEmpty { throw UsageError.missingOption(missing.joined(separator: " and "), command: arguments.command) }
        let package = try Self.package(arguments)
        let account = try Self.account(arguments)
        let override: String?
        if let given = try arguments.value(APIOptions.apiURL) {
            switch APIBase.url(sandbox: false, override: given) {
            case .success(let url): override = url
            case .failure(let error):
                throw arguments.invalid(
                    APIOptions.apiURL, text: error.url,
                    expected: "an https:// URL, or http:// to a loopback address (127.0.0.1, ::1, localhost)")
            }
        } else {
            override = nil
        }
        let api = try PlayDeveloperAPI(account: account, override: override, maxWait: try APIOptions.maxWait(arguments))
        return (api, package)
    }

    /// `--package-name`, required and held to Android's form.
    static func package(_ arguments: ParsedArguments) throws -> String {
        let package = try arguments.required(packageName)
        guard isPackageName(package) else {
            throw arguments.invalid(
                packageName, expected: "an Android package name (letters, digits, _ and dots: com.example.app)")
        }
        return package
    }

    /// With `--dry-run`, what the exchange would send (the assertion's claims, never the assertion).
    static func sayDryRun(_ api: PlayDeveloperAPI, _ arguments: ParsedArguments) -> Bool {
        guard arguments.isSet(dryRun) else { return false }
        print("would exchange at \(api.tokenURL): \(api.assertionDescription)")
        return true
    }

    /// What the discussion of each command says of its exit status.
    static let exitStatus = """
        Exit status: 0 when everything asked for is in, 1 when Google refused or did not answer
        (nothing is written then), 2 for a usage error.
        """

    /// The key file: a regular file only its owner can read, the size of a key, a service account's.
    private static func account(_ arguments: ParsedArguments) throws -> ServiceAccount {
        let bytes = try KeyFile.read(
            serviceAccount, arguments, what: "JSON key file", size: "a few KB", limit: ServiceAccount.largestFile)
        switch ServiceAccount.read(bytes) {
        case .success(let account): return account
        case .failure(let error):
            throw arguments.invalid(serviceAccount, expected: "a service account's JSON key file from Google Cloud: \(error)")
        }
    }

    /// Android's package names: two or more dot-separated segments of ASCII letters, digits and
    /// `_`, each starting with a letter (nothing else can reach the request's path).
    static func isPackageName(_ text: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        let segments = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count >= 2, text.utf8.count <= 255 else { return false }
        return segments.allSatisfy { segment in
            guard let first = segment.first, isLetter(first) else { return false }
            return segment.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") }
        }
    }
}
