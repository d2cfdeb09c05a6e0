import AppStoreAPI
import Ingest
import Pipeline
import Support

/// What every `fetch` takes: where to write, which host, and the key.
enum FetchOptions {
    static let data = Option.path(
        "data", "DIR", help: "The input folder to complete (files land in notifications/ or transactions/).")
    static let bundleID = Option("bundle-id", "ID", help: "The app's bundle id (the token's bid).")
    static let environment = Option<AppStoreEnvironment>(
        "environment", "ENV", help: "Production (default) or Sandbox: which host and how far back.",
        expected: "Production or Sandbox"
    ) { text in AppStoreEnvironment(rawValue: text).flatMap { $0 == .production || $0 == .sandbox ? $0 : nil } }
    static let maxPages = Option<Int>.count(
        "max-pages", "N", help: "Stop a listing longer than N pages (default 10000).", in: 1...1_000_000_000)
    static let dryRun = Flag(
        "dry-run", help: "Print the requests (and the token's claims, never the token); fetch nothing.")

    static let specs: [OptionSpec] =
        [data.spec, APIOptions.key.spec, APIOptions.keyID.spec, APIOptions.issuerID.spec, bundleID.spec, environment.spec]
        + [APIOptions.apiURL.spec, maxPages.spec, APIOptions.maxWait.spec, dryRun.spec, DataOptions.quiet.spec]

    /// The client, from the command line.
    static func fetch(_ arguments: ParsedArguments) throws -> (PagedFetch, sandbox: Bool, data: String) {
        let data = try arguments.required(Self.data)
        guard FileSystem.kind(data) == .directory else { throw arguments.invalid(Self.data, expected: "an existing folder") }
        let sandbox = try arguments.value(environment) == .sandbox
        let baseURL = try APIOptions.baseURL(arguments, environment: sandbox ? .sandbox : .production)
        let credentials = try APIOptions.credentials(arguments, bundleID: try arguments.value(bundleID))
        let api = try AppStoreServerAPI(credentials: credentials, baseURL: baseURL, maxWait: try APIOptions.maxWait(arguments))
        var fetch = PagedFetch(api: api, maxPages: try arguments.value(maxPages) ?? 10_000)
        fetch.dryRun = arguments.isSet(dryRun)
        fetch.say = { print($0) }
        if fetch.dryRun { print(api.tokenDescription) }
        return (fetch, sandbox, data)
    }
}
