import Attribution
import Dispatch
import Foundation
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic
import Testing

/// Paths and scratch files for tests that go through real files.
enum TestFiles {
    /// `Tests/Fixtures/NAME`.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Fixtures/\(name)"
        ).path
    }

    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// This run's scratch folder, `$TMPDIR/refund-cost-tests/run-PID`, removed when the tests
    /// end (set REFUND_COST_KEEP_TEST_FILES to keep it), with what runs that were stopped left.
    static let runFolder: String = {
        let root = NSTemporaryDirectory() + "refund-cost-tests"
        // Only in a folder of this user's own, not a link another user put there to have the
        // files it points to removed.
        var info = stat()
        let own = lstat(root, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_uid == getuid()
        for name in own ? (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] : [] {
            // A run still going (its process alive, or another user's) keeps its folder.
            if name.hasPrefix("run-"), let pid = Int32(name.dropFirst(4)), kill(pid, 0) == 0 || errno == EPERM { continue }
            try? FileManager.default.removeItem(atPath: root + "/" + name)
        }
        let path = root + "/run-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["REFUND_COST_KEEP_TEST_FILES"] == nil {
            atexit { try? FileManager.default.removeItem(atPath: TestFiles.runFolder) }
        }
        return path
    }()

    /// A fresh empty folder in this run's scratch folder.
    static func temporaryDirectory(_ label: String = #function) throws -> String {
        let name = label.filter { $0.isLetter || $0.isNumber }
        let path = runFolder + "/\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ text: String, to path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }
}

/// Reads a whole CSV file through the real reader into strings.
func readRecords(_ path: String) throws -> [(line: Int, fields: [String])] {
    var records: [(line: Int, fields: [String])] = []
    try CSVReader.read(path: path) { record in records.append((record.line, record.strings)) }
    return records
}

/// Parses bytes through a `CSVParser` fed in blocks of `blockSize`, to test block boundaries.
func parseInBlocks(_ bytes: [UInt8], blockSize: Int) throws -> [(line: Int, fields: [String])] {
    var records: [(line: Int, fields: [String])] = []
    let parser = CSVParser(file: "memory.csv")
    try bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let end = min(raw.count, offset + blockSize)
            try parser.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<end])) { records.append(($0.line, $0.strings)) }
            offset = end
        }
    }
    try parser.finish { records.append(($0.line, $0.strings)) }
    return records
}

/// What a run of the built `refund-cost` executable printed and how it exited.
struct ToolRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the built executable as a user or a script would; kills it after `timeout` seconds
/// (status 124), so a hang fails the test instead of stopping the suite.
///
/// `fileSizeLimit` runs it as on a disk that is full past that many bytes a file: a write
/// beyond it fails part-way (`RLIMIT_FSIZE`, its signal ignored, as `ENOSPC` would fail it).
/// `openedFiles` runs it under strace and writes there every file it opened.
func runTool(
    _ arguments: [String], timeout: Double = 120, environment: [String: String] = [:], fileSizeLimit: Int? = nil,
    openedFiles: String? = nil
) throws -> ToolRun {
    let process = Process()
    process.executableURL = toolExecutable()
    process.arguments = withTestRoot(arguments)
    if let fileSizeLimit {
        let limited = """
            import os, resource, signal, sys
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (\(fileSizeLimit), \(fileSizeLimit)))
            os.execv(sys.argv[1], sys.argv[1:])
            """
        process.arguments = ["python3", "-c", limited, toolExecutable().path] + withTestRoot(arguments)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    }
    if let openedFiles {
        process.arguments =
            ["-f", "-qq", "-e", "trace=open,openat", "-o", openedFiles, toolExecutable().path] + withTestRoot(arguments)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
    }
    // The steps of a distributed report authenticate their files with the run's secret, which
    // a driver hands them in the environment: the tests are one run.
    var environment = environment
    if environment[testStepSecretVariable] == nil { environment[testStepSecretVariable] = testStepSecret }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let deadline = DispatchTime.now() + timeout
    let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: deadline, execute: watchdog)
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    let killed = process.terminationReason == .uncaughtSignal
    return ToolRun(
        status: killed ? 124 : process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self))
}

/// The secret the tests' distributed steps share, as one run's steps do.
let testStepSecret = "test-secret-of-one-distributed-run-0123456789abcdef"
let testStepSecretVariable = "REFUND_COST_STEP_SECRET"

/// The built `refund-cost` beside the test bundle.
func toolExecutable() -> URL {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let executable = binary.appendingPathComponent("refund-cost")
    // xctest bundles live one level deeper than the executable on some layouts.
    if FileManager.default.fileExists(atPath: executable.path) { return executable }
    return binary.deletingLastPathComponent().appendingPathComponent("refund-cost")
}

/// Data written by `generate` and by the fixtures is signed with a test chain whose root lies
/// beside it; the tests name that root as a user would, unless the test says otherwise.
func withTestRoot(_ arguments: [String]) -> [String] {
    // fetch writes into --data and reads no signatures.
    if arguments.first == "fetch" { return arguments }
    // Tests stay apart from the user's record of verified files unless they name one.
    let keepApart = arguments.contains("--data") && !arguments.contains("--verified-files")
    let arguments = keepApart ? arguments + ["--verified-files", "none"] : arguments
    guard let dataIndex = arguments.firstIndex(of: "--data"), dataIndex + 1 < arguments.count,
        !arguments.contains("--trust-root"), !arguments.contains("--no-verify")
    else { return arguments }
    let root = arguments[dataIndex + 1] + "/" + DatasetGenerator.testRootName
    guard FileManager.default.fileExists(atPath: root) else { return arguments }
    return arguments + ["--trust-root", root]
}

/// A copy of `Data/sample` to spoil, in a fresh folder.
func copyOfSample(_ label: String = #function) throws -> String {
    let root = try TestFiles.temporaryDirectory(label) + "/data"
    try FileManager.default.copyItem(atPath: TestFiles.packageRoot + "/Data/sample", toPath: root)
    return root
}

/// Report options for a data folder, trusting the test root that lies beside signed test data.
func reportOptions(data: String, out: String, window: ReportWindow) throws -> RunOptions {
    var options = RunOptions(data: data, out: out, window: window)
    options.appStore.extraTrustRoots = try testRoots(data)
    return options
}

/// The test root beside a data folder (written by `generate` and by the fixtures), as DER.
func testRoots(_ data: String) throws -> [[UInt8]] {
    let path = data + "/" + DatasetGenerator.testRootName
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    return try Certificate.load(path: path).map(\.der)
}

/// Two report folders hold the same files, byte for byte, but run.json's timings (`*_seconds`),
/// which differ on every run: what every distributed run is held to against `report`.
func expectSameReport(_ actual: String, as expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: expected).sorted()
    #expect(try FileManager.default.contentsOfDirectory(atPath: actual).sorted() == names, sourceLocation: sourceLocation)
    func withoutTimings(_ text: String) -> String {
        text.split(separator: "\n").filter { !$0.contains("_seconds") }.joined(separator: "\n")
    }
    for name in names {
        let (got, wanted) = (try TestFiles.read(actual + "/" + name), try TestFiles.read(expected + "/" + name))
        #expect(
            name == "run.json" ? withoutTimings(got) == withoutTimings(wanted) : got == wanted, "\(name)",
            sourceLocation: sourceLocation)
    }
}
