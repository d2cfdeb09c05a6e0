import AppStoreAPI
import Ingest
import Pipeline
import Support

/// `refund-cost fetch notifications`: Get Notification History into notifications/.
enum FetchNotificationsCommand: Command {
    static let spec = CommandSpec(
        name: "fetch notifications",
        summary: "Fetch the notifications Apple sent (Get Notification History) into DIR/notifications/.",
        usage:
            "refund-cost fetch notifications --data DIR --since TIME [--until TIME] [--only-failures] --key FILE --key-id ID --issuer-id ID --bundle-id ID",
        options: FetchOptions.specs + [
            since.spec, until.spec, onlyFailures.spec, CommonOptions.help,
        ],
        discussion: """
            Every page of Apple's notification history for the range, as Apple returned it, one page
            a line, lands in DIR/notifications/history-<start>-<end>.jsonl when the last page is in;
            a run that fails leaves nothing there and says how far it got. report reads the pages
            as it reads the notifications your server stored, each notificationUUID once, so a range
            that overlaps an earlier fetch, or what the server kept, counts nothing twice.
            """,
        examples: [
            "refund-cost fetch notifications --data exports/ --since 2026-10-01 --key AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --issuer-id 57246542-96fe-1a63-e053-0824d011072a --bundle-id com.example.app"
        ])

    static let since = Option<Timestamp>.time("since", help: "Start of the range (Apple keeps 180 days, 30 in Sandbox).")
    static let until = Option<Timestamp>.time("until", help: "End of the range, excluded (default: now).")
    static let onlyFailures = Flag("only-failures", help: "Only the notifications your server did not acknowledge.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (fetch, sandbox, data) = try FetchOptions.fetch(arguments)
        let now = Clock.now()
        let since = try arguments.required(Self.since)
        let until = try arguments.value(Self.until) ?? now
        let kept = FetchCalls.historyKept(sandbox: sandbox)
        let earliest = now.adding(TimeSpan(milliseconds: -kept.milliseconds))
        guard since >= earliest else {
            throw arguments.invalid(
                Self.since,
                expected: "a time Apple still keeps: \(sandbox ? 30 : 180) days of history, so --since \(earliest) or later")
        }
        guard until > since else {
            throw arguments.invalid(Self.until, expected: "a time after --since")
        }
        do {
            let (file, pages) = try FetchCalls.notifications(
                fetch, data: data, since: since, until: until, onlyFailures: arguments.isSet(onlyFailures))
            if !arguments.isSet(DataOptions.quiet) && !fetch.dryRun {
                print("wrote \(file): \(pages) page\(pages == 1 ? "" : "s") of notification history")
            }
            return 0
        } catch let error as FetchError {
            writeStandardError(error.description + "\n")
            return 1
        }
    }
}
