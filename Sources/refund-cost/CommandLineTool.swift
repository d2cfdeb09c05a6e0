import Support

/// A subcommand: what it accepts, and what it does with the parsed command line.
protocol Command {
    static var spec: CommandSpec { get }
    /// Runs the command; returns the exit status (0 success, 1 input problems).
    static func run(_ arguments: ParsedArguments) throws -> Int32
}

/// Dispatches a command line to its command and turns every outcome into an exit status:
/// 0 success, 1 input problems, 2 usage error.
enum CommandLineTool {
    static var commands: [any Command.Type] {
        [
            ReportCommand.self, ValidateCommand.self, ExplainCommand.self, GenerateCommand.self, ExportAccessCommand.self,
            RespondCommand.self, FetchNotificationsCommand.self, FetchTransactionsCommand.self, FetchVoidedCommand.self,
            FetchOrdersCommand.self, FetchPurchasesCommand.self,
            DecodeCommand.self,
            SnapshotCommand.self,
            SplitCommand.self, PartialCommand.self, SettleCommand.self, MergeCommand.self, PublishCommand.self,
        ]
    }

    static func run(_ given: [String]) -> Int32 {
        let specs = commands.map { $0.spec }
        // `fetch notifications`, `fetch transactions` and `fetch voided` are named by two words.
        var arguments = given
        if given.first == "fetch", given.count > 1, !given[1].hasPrefix("-") {
            arguments = ["fetch " + given[1]] + given.dropFirst(2)
        }
        // No command is a usage error: the usage goes where errors go, and the status says so.
        guard let first = arguments.first else {
            writeStandardError(Help.tool(commands: specs))
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, let command = commands.first(where: { $0.spec.name == arguments[1] }) {
                print(Help.command(command.spec), terminator: "")
            } else {
                print(Help.tool(commands: specs), terminator: "")
            }
            return 0
        case "--version":
            print("refund-cost \(ToolVersion.current)")
            return 0
        default:
            break
        }
        if first == "fetch" {
            // `fetch` names a group of commands: its help lists them; alone it is a usage error.
            let group = Help.group("fetch", commands: specs.filter { $0.name.hasPrefix("fetch ") })
            if arguments.count > 1, arguments[1] == "--help" || arguments[1] == "-h" {
                print(group, terminator: "")
                return 0
            }
            writeStandardError(
                Diagnostic("fetch needs what to fetch: notifications, transactions, voided, orders or purchases").description
                    + "\n\n"
                    + group)
            return 2
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            let error = UsageError.unknownCommand(first, suggestion: ArgumentParser.closest(to: first, among: specs.map(\.name)))
            writeStandardError(error.description + "\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(Help.command(command.spec), terminator: "")
            return 0
        }
        do {
            return try command.run(try ArgumentParser.parse(rest, for: command.spec))
        } catch let error as UsageError {
            writeStandardError(error.description + "\n")
            return 2
        } catch {
            writeStandardError(Diagnostic.of(error).description + "\n")
            return 1
        }
    }
}
