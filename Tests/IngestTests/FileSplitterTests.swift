import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

@Suite("Splitting files at record boundaries")
struct FileSplitterTests {
    /// Parts cover the file exactly, start at record boundaries (never inside a quoted field
    /// with newlines) and know their first line; their records together are the file's.
    @Test(arguments: [2, 3, 7, 40])
    func splitsAtRecordBoundariesEvenInsideQuotedNewlines(parts: Int) throws {
        var text = "\u{FEFF}id,note\n"
        for index in 0..<400 {
            text += index % 5 == 0 ? "\(index),\"line one\nline two, \"\"quoted\"\"\nline three\"\n" : "\(index),plain \(index)\n"
        }
        let directory = try TestFiles.temporaryDirectory()
        let path = directory + "/quoted.csv"
        try TestFiles.write(text, to: path)
        let whole = try readRecords(path)
        let plan = try FileSplitter(path: path, parts: parts)
        #expect(plan.parts.count > 1)
        #expect(plan.parts.first?.start == 0)
        #expect(plan.parts.last?.end == plan.size)
        for (first, second) in zip(plan.parts, plan.parts.dropFirst()) { #expect(first.end == second.start) }
        var joined: [(line: Int, fields: [String])] = []
        for part in plan.parts {
            try CSVReader.read(part: part) { joined.append(($0.line, $0.strings)) }
        }
        #expect(joined.map(\.fields) == whole.map(\.fields))
        #expect(joined.map(\.line) == whole.map(\.line))
        #expect(plan.sha256 == (try SHA256.file(path)))
    }

    @Test func sha256MatchesKnownVectors() throws {
        let directory = try TestFiles.temporaryDirectory()
        try TestFiles.write("abc", to: directory + "/abc")
        #expect(try SHA256.file(directory + "/abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        try TestFiles.write("", to: directory + "/empty")
        #expect(try SHA256.file(directory + "/empty") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
