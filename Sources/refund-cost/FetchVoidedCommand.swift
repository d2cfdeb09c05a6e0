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
            PlayFetchOptions.data.spec, PlayFetchOptions.packageName.spec, PlayFetchOptions.serviceAccount.spec, since.spec,
            until.spec, APIOptions.apiURL.spec, FetchOptions.maxPages.spec, APIOptions.maxWait.spec, PlayFetchOptions.dryRun.spec,
            DataOptions.quiet.spec, CommonOptions.help,
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

            \(PlayFetchOptions.exitStatus)
            """,
        examples: [
            "refund-cost fetch voided --data exports/ --package-name com.example.app --service-account play-key.json"
        ])

    static let since = Option<Timestamp>.time(
        "since", help: "Start of the range (default and earliest: 30 days ago, as far as Google lists).")
    static let until = Option<Timestamp>.time("until", help: "End of the range, excluded (default: a minute ago).")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (api, data, package) = try PlayFetchOptions.client(arguments)
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
        var fetch = PagedFetch(api: api, maxPages: try arguments.value(FetchOptions.maxPages) ?? 10_000)
        fetch.dryRun = PlayFetchOptions.sayDryRun(api, arguments)
        fetch.say = { print($0) }
        do {
            let (file, pages, voids) = try VoidedFetch.fetch(
                fetch, data: data, packageName: package, since: since, until: until)
            if !arguments.isSet(DataOptions.quiet) && !fetch.dryRun {
                print(
                    "wrote \(file): \(Format.count(voids)) voided purchase\(voids == 1 ? "" : "s") in \(pages) "
                        + "page\(pages == 1 ? "" : "s")")
            }
            return 0
        } catch let error as FetchError {
            writeStandardError(error.description + "\n")
            return 1
        }
    }
}
