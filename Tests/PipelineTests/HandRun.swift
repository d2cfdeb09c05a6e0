import Foundation
import Testing

@testable import TestSupport

/// Partials made by hand into one folder, each remembered with how it was made, so that those
/// settle names are computed again the same way with their seeds.
struct HandRun {
    let snapshot: String
    let parts: String
    let arguments: [String]
    private var made: [String: [String]] = [:]

    init(snapshot: String, parts: String, arguments: [String]) throws {
        self.snapshot = snapshot
        self.parts = parts
        self.arguments = arguments
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
    }

    /// `parts/NAME.partial`, made with `how` (`--file ...`, or `--split S --piece K`).
    mutating func partial(_ name: String, _ how: [String], seeds: [String] = []) throws -> ToolRun {
        made[parts + "/" + name + ".partial"] = how
        return try runTool(
            ["partial", "--snapshot", snapshot, "--partial", parts + "/" + name + ".partial"] + how
                + seeds.flatMap { ["--seeds", $0] } + arguments)
    }

    /// Settles; computes again every partial settle names, with its seeds; settles again.
    ///
    /// Returns the partials computed again.
    @discardableResult
    mutating func settle() throws -> [String] {
        let settled = try runTool(["settle", "--snapshot", snapshot, "--partials", parts])
        try #require(settled.status == 0, "\(settled.stderr)")
        let named = settled.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        for line in named {
            let name = String(line[0].dropFirst(parts.count + 1).dropLast(".partial".count))
            let again = try partial(name, made[line[0]] ?? [], seeds: [line[1]])
            try #require(again.status == 0, "\(again.stderr)")
        }
        let record = try runTool(["settle", "--snapshot", snapshot, "--partials", parts])
        try #require(record.status == 0 && record.stdout.isEmpty, "\(record.stdout)\(record.stderr)")
        return named.map { $0[0] }
    }
}
