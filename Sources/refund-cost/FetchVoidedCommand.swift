import AppStoreAPI
import Ingest
import Pipeline
import PlayAPI
import Support

/// `refund-cost fetch voided`: Google Play's Voided Purchases API into play/voided/.
enum FetchVoidedCommand: Command {
    static let spec = CommandSpec(
        name: "fetch voided",
        summary: "Fetch the purchases Google Play voided (refunds, chargebacks) into DIR/play/voided/.",
        usage:
            "refund-cost fetch voided --data DIR --package-name NAME --service-account FILE [--since TIME] [--until TIME]",
        options: [
            FetchOptions.data.spec, packageName.spec, serviceAccount.spec, since.spec, until.spec, APIOptions.apiURL.spec,
            FetchOptions.maxPages.spec, APIOptions.maxWait.spec, dryRun.spec, DataOptions.quiet.spec, CommonOptions.help,
        ],
        discussion: """
            Every page of voidedpurchases.list for the range (one-time products and subscriptions, with
            refunds of part of a quantity), as Google returned it, one page a line, lands in
            DIR/play/voided/voided-<start>-<end>.jsonl when the last page is in; a run that fails
            leaves nothing there and says how far it got. validate reads the pages as it reads the
            rest of play/, each void once, so ranges that overlap count nothing twice.

            Google lists 30 days back: --since defaults to that, and an earlier one is refused.
            The service account's key signs a JWT that Google exchanges for an access token; the
            key, the JWT and the token are never printed or written. The account needs access to
            the app in Play Console (Users and permissions: view financial data).
            """,
        examples: [
            "refund-cost fetch voided --data exports/ --package-name com.example.app --service-account play-key.json"
        ])

    static let packageName = Option("package-name", "NAME", help: "The app's package name (com.example.app).")
    static let serviceAccount = Option.path(
        "service-account", "FILE", help: "The service account's JSON key file (readable by you only).")
    static let since = Option<Timestamp>.time(
        "since", help: "Start of the range (default and earliest: 30 days ago, as far as Google lists).")
    static let until = Option<Timestamp>.time("until", help: "End of the range, excluded (default: a minute ago).")
    static let dryRun = Flag(
        "dry-run", help: "Print the requests (and the assertion's claims, never a token); fetch nothing.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let data = try arguments.required(FetchOptions.data)
        guard FileSystem.kind(data) == .directory else {
            throw arguments.invalid(FetchOptions.data, expected: "an existing folder")
        }
        let missing = [(packageName.flag, arguments.text(packageName)), (serviceAccount.flag, arguments.text(serviceAccount))]
            .filter { $0.1 == nil }.map(\.0)
        if !missing.isEmpty { throw UsageError.missingOption(missing.joined(separator: " and "), command: arguments.command) }
        let package = try arguments.required(packageName)
        guard Self.isPackageName(package) else {
            throw arguments.invalid(
                packageName, expected: "an Android package name (letters, digits, _ and dots: com.example.app)")
        }
        let now = Clock.now()
        // A little inside Google's 30 days and before its now, so neither end is refused for the clocks' drift.
        let earliest = now.adding(TimeSpan(milliseconds: -VoidedFetch.kept.milliseconds)).adding(.minutes(5))
        let since = try arguments.value(Self.since) ?? earliest
        let until = try arguments.value(Self.until) ?? now.adding(.minutes(-1))
        guard since >= earliest else {
            throw arguments.invalid(
                Self.since, expected: "a time Google still lists: 30 days back, so --since \(earliest) or later")
        }
        guard until > since else { throw arguments.invalid(Self.until, expected: "a time after --since") }
        guard until <= now else { throw arguments.invalid(Self.until, expected: "a time not after now (\(now))") }
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
        var fetch = PagedFetch(api: api, maxPages: try arguments.value(FetchOptions.maxPages) ?? 10_000)
        fetch.dryRun = arguments.isSet(dryRun)
        fetch.say = { print($0) }
        if fetch.dryRun {
            print("would exchange at \(api.tokenURL): \(api.assertionDescription)")
        }
        do {
            let (file, pages) = try VoidedFetch.fetch(fetch, data: data, packageName: package, since: since, until: until)
            if !arguments.isSet(DataOptions.quiet) && !fetch.dryRun {
                print("wrote \(file): \(pages) page\(pages == 1 ? "" : "s") of voided purchases")
            }
            return 0
        } catch let error as FetchError {
            writeStandardError(error.description + "\n")
            return 1
        }
    }

    /// The key file: a regular file only its owner can read, the size of a key, a service account's.
    private static func account(_ arguments: ParsedArguments) throws -> ServiceAccount {
        let path = try arguments.required(serviceAccount)
        guard FileSystem.kind(path) == .regularFile, let exposed = FileSystem.readableByOthers(path) else {
            throw arguments.invalid(serviceAccount, expected: "a readable JSON key file")
        }
        guard !exposed else {
            throw arguments.invalid(
                serviceAccount, expected: "a key only you can read: group or others can read it now; run chmod 600 \(path)")
        }
        let limit = ServiceAccount.largestFile
        if let size = FileSystem.fileSize(path), size > limit {
            throw arguments.invalid(
                serviceAccount,
                expected: "a service account's key file (a few KB): \(path) is \(HumanText.count(size)) bytes, "
                    + "more than any key file (\(HumanText.count(limit)) at most)")
        }
        guard let bytes = try? FileDescriptor.openForReading(path).readAll(limit: limit) else {
            throw arguments.invalid(serviceAccount, expected: "a readable JSON key file")
        }
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
