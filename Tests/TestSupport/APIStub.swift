import Foundation
import Support

/// The stub of Apple's API (Tests/stub/appstore_stub.py) on 127.0.0.1, started for one test:
/// it answers from a script and logs every request, which the test then checks.
final class APIStub {
    struct Request {
        var method: String
        var path: String
        var headers: [String: String]
        var body: String
        /// What the stub made of it (Google's stub: "issued", "refused", "page 0", ...).
        var note = ""
    }

    let process = Process()
    let log: String
    private(set) var port = 0

    /// `responses` for Send Consumption Information, in order (the last repeats).
    convenience init(_ responses: [[String: Any]], label: String = #function) throws {
        try self.init(
            routes: [["method": "PUT", "prefix": "/inApps/v2/transactions/consumption/", "responses": responses]], label: label)
    }

    /// Routes of `method`, path `prefix` and `responses` (in order, the last repeating).
    convenience init(routes: [[String: Any]], label: String = #function) throws {
        try self.init(stub: "appstore_stub.py", script: ["routes": routes], label: label)
    }

    /// The stub of Google's API (Tests/stub/play_stub.py) with `script` (its docstring says what
    /// it holds), the test service account's client email, key id and modulus filled in.
    convenience init(play script: [String: Any], label: String = #function) throws {
        let account =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("api/play-service-account.json"))))
            as? [String: Any] ?? [:]
        var script = script
        if script["client_email"] == nil { script["client_email"] = account["client_email"] }
        if script["key_id"] == nil { script["key_id"] = account["private_key_id"] }
        if script["modulus"] == nil {
            script["modulus"] = try TestFiles.read(TestFiles.fixture("api/play-service-account.modulus"))
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try self.init(stub: "play_stub.py", script: script, label: label)
    }

    private init(stub: String, script: [String: Any], label: String) throws {
        let folder = try TestFiles.temporaryDirectory("stub-" + label)
        log = folder + "/requests.jsonl"
        try JSONSerialization.data(withJSONObject: script).write(to: URL(fileURLWithPath: folder + "/script.json"))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", TestFiles.packageRoot + "/Tests/stub/" + stub, "--script", folder + "/script.json", "--log", log,
            "--lifetime", "120",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line says which port it took.
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        port = Int(text.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var url: String { "http://127.0.0.1:\(port)" }

    var requests: [Request] {
        guard let text = try? TestFiles.read(log) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Request(
                method: object["method"] as? String ?? "", path: object["path"] as? String ?? "",
                headers: object["headers"] as? [String: String] ?? [:], body: object["body"] as? String ?? "",
                note: object["note"] as? String ?? "")
        }
    }
}

/// The test service account's key file (`Fixtures/api/play-service-account.json`), copied
/// where only its owner can read it.
func privatePlayKey(_ label: String = #function) throws -> String {
    let path = try TestFiles.temporaryDirectory("play-key-" + label) + "/play-key.json"
    try FileManager.default.copyItem(atPath: TestFiles.fixture("api/play-service-account.json"), toPath: path)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    return path
}

/// The test key (`Fixtures/api/test-key.p8`), copied where only its owner can read it, as
/// `respond` demands of a real key.
func privateTestKey(_ label: String = #function) throws -> String {
    let path = try TestFiles.temporaryDirectory("key-" + label) + "/AuthKey_TEST123456.p8"
    try FileManager.default.copyItem(atPath: TestFiles.fixture("api/test-key.p8"), toPath: path)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    return path
}

/// base64url without padding, decoded.
func base64URLDecode(_ text: Substring) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64)
}
