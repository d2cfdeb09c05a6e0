import RefundCost

/// Dispatches a command line to its command and turns every outcome into an exit status:
/// 0 success, 1 input problems, 2 usage error.
enum CommandLineTool {
    static let commands: [CommandSpec] = [ReportCommand.spec, ValidateCommand.spec, ExplainCommand.spec, GenerateCommand.spec, ExportAccessCommand.spec]

    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            print(Help.tool(commands: commands), terminator: "")
            return 0
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, let spec = commands.first(where: { $0.name == arguments[1] }) {
                print(Help.command(spec), terminator: "")
            } else {
                print(Help.tool(commands: commands), terminator: "")
            }
            return 0
        case "--version":
            print("refund-cost \(ToolVersion.current)")
            return 0
        default:
            break
        }
        guard let spec = commands.first(where: { $0.name == first }) else {
            let error = UsageError.unknownCommand(first, suggestion: ArgumentParser.closest(to: first, among: commands.map(\.name)))
            writeStandardError(error.description + "\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(Help.command(spec), terminator: "")
            return 0
        }
        do {
            let parsed = try ArgumentParser.parse(rest, for: spec)
            switch spec.name {
            case ReportCommand.spec.name: return try ReportCommand.run(parsed)
            case ValidateCommand.spec.name: return try ValidateCommand.run(parsed)
            case ExplainCommand.spec.name: return try ExplainCommand.run(parsed)
            case GenerateCommand.spec.name: return try GenerateCommand.run(parsed)
            case ExportAccessCommand.spec.name: return try ExportAccessCommand.run(parsed)
            default: return 2
            }
        } catch let error as UsageError {
            writeStandardError(error.description + "\n")
            return 2
        } catch {
            writeStandardError("\(error)\n")
            return 1
        }
    }
}
