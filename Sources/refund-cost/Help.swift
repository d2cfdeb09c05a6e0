import Attribution
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

/// The help pages: what the tool is for, then each command with its options and examples.
enum Help {
    static func tool(commands: [CommandSpec]) -> String {
        var text = """
            refund-cost \(ToolVersion.current): what App Store and Google Play refunds, chargebacks and
            Family-Sharing leaks really cost.

            It joins App Store Server Notifications and transaction history, and Google Play's
            notifications, orders and voided purchases, with your delivery-cost CSVs (GPU minutes,
            API tokens, storage, payouts), gives every cost row a class (paid, family_shared,
            after_refund, ...) and reports what refunds cost, what chargebacks lose and what leaks.

            USAGE: refund-cost COMMAND [OPTIONS]

            COMMANDS:

            """
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            text += "  " + Format.padRight(command.name, width) + command.summary + "\n"
        }
        text += """

            OPTIONS:
              --help        Show this help, or a command's with 'refund-cost COMMAND --help'.
              --version     Print the version.

            Start with: refund-cost validate --data DIR
            """
        return text + "\n"
    }

    /// A command named by two words (`fetch notifications`, `fetch transactions`): its members.
    static func group(_ name: String, commands: [CommandSpec]) -> String {
        var text = "USAGE: refund-cost \(name) WHAT [OPTIONS]\n\nCOMMANDS:\n"
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands { text += "  " + Format.padRight(command.name, width) + command.summary + "\n" }
        return text + "\nRun 'refund-cost \(commands.first?.name ?? name) --help' for one command's options.\n"
    }

    static func command(_ spec: CommandSpec) -> String {
        var text = "refund-cost \(spec.name): \(spec.summary)\n\nUSAGE: \(spec.usage)\n\nOPTIONS:\n"
        let labels = spec.options.map { option in
            "--" + option.name + (option.value.map { " " + $0 } ?? "")
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, spec.options) {
            text += "  " + Format.padRight(label, width) + option.help + "\n"
        }
        text += "\n" + spec.discussion + "\n"
        if !spec.examples.isEmpty {
            text += "\nEXAMPLES:\n" + spec.examples.map { "  " + $0 }.joined(separator: "\n") + "\n"
        }
        return text
    }
}
