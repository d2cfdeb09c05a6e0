import Foundation

/// A real PostgreSQL server for one test suite.
///
/// Debian's `postgresql` binaries, `initdb` into a temporary folder, listening on a loopback
/// port and a Unix socket there, with password authentication over TCP. PostgreSQL refuses to run as root, so under root (CI) it runs as
/// the `postgres` user the package creates.
final class PostgresServer {
    static let user = "refundcost"
    static let password = "s3cret-Pa55word"

    let folder: String
    let port: Int
    private let bin: String
    private let server: Process

    /// The URL with the password in it.
    var url: String { "postgresql://\(Self.user):\(Self.password)@127.0.0.1:\(port)/postgres" }
    /// The URL without a password (for PGPASSWORD and .pgpass).
    var urlWithoutPassword: String { "postgresql://\(Self.user)@127.0.0.1:\(port)/postgres" }

    /// nil when the machine has no PostgreSQL server installed (`make test` installs it).
    static func binaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    init() throws {
        guard let bin = Self.binaries() else {
            throw ServerError("no PostgreSQL server in /usr/lib/postgresql: apt-get install postgresql (make test does)")
        }
        self.bin = bin
        folder = try TestFiles.temporaryDirectory("postgres")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
        try Self.password.write(toFile: folder + "/password", atomically: true, encoding: .utf8)
        if getuid() == 0 {
            for path in [folder, folder + "/password"] {
                guard chown(path, Self.serverUID, Self.serverGID) == 0 else { throw ServerError("chown \(path) failed") }
            }
        }
        try Self.run(
            bin + "/initdb",
            [
                "-D", folder + "/data", "-U", Self.user, "--pwfile=" + folder + "/password", "--auth-host=scram-sha-256",
                "--auth-local=trust", "-E", "UTF8", "--locale=C",
            ])
        // The server runs as this process's child (not through pg_ctl, whose server would
        // outlive it holding what Foundation watches to see a child end).
        var started: (port: Int, process: Process)?
        for _ in 0..<5 where started == nil {
            let candidate = Int.random(in: 20_000..<60_000)
            let process = try Self.launch(
                bin + "/postgres",
                [
                    "-D", folder + "/data", "-k", folder, "-p", String(candidate), "-c", "listen_addresses=127.0.0.1",
                    "-c", "fsync=off",
                ], log: folder + "/log")
            for _ in 0..<300 where process.isRunning {
                if (try? Self.run(bin + "/pg_isready", ["-q", "-h", "127.0.0.1", "-p", String(candidate)], asServerUser: false))
                    != nil
                {
                    started = (candidate, process)
                    break
                }
                usleep(100_000)
            }
            if started == nil, process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        guard let started else {
            throw ServerError(
                "PostgreSQL did not start: \((try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? "")")
        }
        port = started.port
        server = started.process
    }

    /// Immediate shutdown (SIGQUIT): the data is thrown away with the folder.
    func stop() {
        if server.isRunning {
            kill(server.processIdentifier, SIGQUIT)
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs SQL with psql over the Unix socket; the output unaligned, `|` between fields.
    func sql(_ statement: String) throws -> String {
        try Self.run(
            bin + "/psql",
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", String(port), "-U", Self.user,
                "-d", "postgres", "-c", statement,
            ], asServerUser: false
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static var serverUID: uid_t { getpwnam("postgres").map { $0.pointee.pw_uid } ?? 65534 }
    private static var serverGID: gid_t { getpwnam("postgres").map { $0.pointee.pw_gid } ?? 65534 }

    /// A process for `program`; under root, the server's programs run as `postgres`.
    private static func command(_ program: String, _ arguments: [String], asServerUser: Bool) -> Process {
        let process = Process()
        if getuid() == 0, asServerUser {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments =
                ["--reuid=\(serverUID)", "--regid=\(serverGID)", "--clear-groups", "--", program] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        }
        return process
    }

    /// Starts a program that keeps running (the server), its output into `log`.
    static func launch(_ program: String, _ arguments: [String], log: String) throws -> Process {
        let process = command(program, arguments, asServerUser: true)
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        if getuid() == 0 { _ = chown(log, serverUID, serverGID) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try output.close()
        return process
    }

    /// Runs a program and returns its output; under root, the server's programs run as `postgres`.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], asServerUser: Bool = true) throws -> String {
        let process = command(program, arguments, asServerUser: asServerUser)
        // A file, not a pipe: nothing to drain, whatever the program leaves running.
        let outputPath = TestFiles.runFolder + "/program-\(UUID().uuidString).out"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try output.close()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw ServerError("\(program) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
