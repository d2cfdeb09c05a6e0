import Foundation
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

@Suite("Cutting a file in a given number of pieces")
struct FilePiecesTests {
    /// Always the number asked for: a record longer than a piece leaves the pieces whose start
    /// falls inside it empty, and the pieces still cover the file once, in order.
    @Test func exactlyTheNumberAskedEvenWhenSomeAreEmpty() throws {
        let long = String(repeating: "x", count: 1_000)
        let text = "id,note\n1,\"\(long)\n\(long)\"\n2,short\n3,short\n"
        let path = try TestFiles.temporaryDirectory() + "/long.csv"
        try TestFiles.write(text, to: path)
        let split = try FileSplitter.pieces(path: path, count: 8, records: .csvRecords)
        #expect(split.parts.count == 8)
        #expect(split.parts.first?.start == 0)
        #expect(split.parts.last?.end == text.utf8.count)
        for (first, second) in zip(split.parts, split.parts.dropFirst()) { #expect(first.end == second.start) }
        // The file is 2,030 bytes: the targets 253, 507, ... up to 1,776 fall inside the quoted
        // record (bytes 8 to 2,013, lines 2 and 3): the second piece starts after it, on line 4,
        // and the six after it start there too, empty.
        let starts = split.parts.map(\.start)
        #expect(text.utf8.count == 2_030)
        #expect(starts == [0, 2014, 2014, 2014, 2014, 2014, 2014, 2014])
        #expect(split.parts[1].firstLine == 4)
        var records: [[String]] = []
        for part in split.parts { try CSVReader.read(part: part) { records.append($0.strings) } }
        #expect(records == [["id", "note"], ["1", "\(long)\n\(long)"], ["2", "short"], ["3", "short"]])
    }

    /// A JSON-lines file is cut at any line feed: a line with an odd number of quote bytes (an
    /// escaped quote inside a string) does not stop the cut, as it would in a CSV file.
    @Test func jsonLinesAreCutAtAnyLineFeed() throws {
        let text = #"{"a":"x\"y"}"# + "\n" + String(repeating: #"{"b":1}"# + "\n", count: 4)
        let path = try TestFiles.temporaryDirectory() + "/lines.jsonl"
        try TestFiles.write(text, to: path)
        // 45 bytes: line feeds at 12, 20, 28, 36 and 44. The target 15 gives the line feed at
        // 20 (the next line starts at 21, line 3), the target 30 the one at 36 (37, line 5).
        #expect(text.utf8.count == 45)
        let lines = try FileSplitter.pieces(path: path, count: 3, records: .lines)
        #expect(lines.parts.map(\.start) == [0, 21, 37])
        #expect(lines.parts.map(\.end) == [21, 37, 45])
        #expect(lines.parts.map(\.firstLine) == [1, 3, 5])
        // As CSV records, the first line's odd quote leaves every later line feed inside a field.
        let records = try FileSplitter.pieces(path: path, count: 3, records: .csvRecords)
        #expect(records.parts.map(\.start) == [0, 45, 45])
        let whole = try FileSplitter.pieces(path: path, count: 3, records: .whole)
        #expect(whole.parts.map(\.start) == [0, 45, 45])
    }

    /// A gzip file cannot be cut: it is piece 0, whole, and the others are empty at its end.
    @Test func aGzipFileIsOnePiece() throws {
        let path = try TestFiles.temporaryDirectory() + "/rows.csv.gz"
        let bytes = try Gzip.compress(Array("id,note\n1,a\n2,b\n".utf8), name: "rows.csv")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let split = try FileSplitter.pieces(path: path, count: 3, records: .csvRecords)
        #expect(split.parts.map(\.start) == [0, bytes.count, bytes.count])
        #expect(split.parts.map(\.end) == [bytes.count, bytes.count, bytes.count])
    }
}
