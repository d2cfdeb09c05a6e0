import Support

/// The secret of one distributed run: the key of the MAC every file between its steps carries
/// (`PackedFile`), so whoever can only write the storage between the steps cannot make a file
/// any step accepts.
///
/// The driver draws it for the run and hands it to every task as Spark hands its own secret,
/// in the environment (`REFUND_COST_STEP_SECRET`): never on a command line (which any user of
/// the machine can read), never in the shared folder.
package struct StepSecret: Sendable {
    package static let variable = "REFUND_COST_STEP_SECRET"
    /// The fewest characters a secret has (`openssl rand -hex 32` gives 64).
    package static let shortest = 32

    package let key: [UInt8]

    /// The fewest different characters it holds: `aaaa...` is no secret.
    package static let fewestDistinct = 8

    package init(_ text: String) throws {
        guard text.utf8.count >= Self.shortest, Set(text.utf8).count >= Self.fewestDistinct else {
            throw StepSecretError.tooShort
        }
        key = Array(text.utf8)
    }

    /// The secret the environment holds.
    package static func fromEnvironment() throws -> StepSecret {
        guard let text = FileSystem.environment(variable), !text.isEmpty else { throw StepSecretError.missing }
        return try StepSecret(text)
    }
}

/// No usable secret: the steps cannot authenticate their files.
package enum StepSecretError: DiagnosticError {
    case missing
    case tooShort

    package var diagnostic: Diagnostic {
        switch self {
        case .missing:
            Diagnostic(
                "the steps of a distributed report authenticate the files they hand each other with a secret of the run, "
                    + "and \(StepSecret.variable) is not set: set it to the same secret for every step of one run, "
                    + "e.g. export \(StepSecret.variable)=$(openssl rand -hex 32) (scaleout/driver.py does it for Spark)")
        case .tooShort:
            Diagnostic(
                "\(StepSecret.variable) is shorter than \(StepSecret.shortest) characters, or holds fewer than "
                    + "\(StepSecret.fewestDistinct) different ones: give it a secret that cannot be guessed, "
                    + "e.g. $(openssl rand -hex 32)")
        }
    }
}
