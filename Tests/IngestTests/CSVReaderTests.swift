import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

@Suite("CSV reader over libcsv")
struct CSVReaderTests {
    @Test func skipsByteOrderMark() throws {
        let records = try readRecords(TestFiles.fixture("bom.csv"))
        #expect(records.map(\.fields) == [["a", "b", "c"], ["1", "2", "3"]])
    }

    @Test func readsCRLFAndSkipsBlankLinesKeepingLineNumbers() throws {
        let records = try readRecords(TestFiles.fixture("crlf.csv"))
        #expect(records.map(\.fields) == [["a", "b"], ["1", "2"], ["3", "4"]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func quotedFieldsWithCommasQuotesAndNewlines() throws {
        let records = try readRecords(TestFiles.fixture("quoted.csv"))
        #expect(
            records.map(\.fields) == [
                ["id", "note", "amount"],
                ["1", "has, comma", "5"],
                ["2", "say \"hi\"", "6"],
                ["3", "two\nlines\nhere", "7"],
                ["4", "", "8"],
                ["5", "", "9"],
            ])
        // The record with a three-line field starts on line 4; the next one on line 7.
        #expect(records.map(\.line) == [1, 2, 3, 4, 7, 8])
    }

    @Test func lastRecordWithoutFinalNewline() throws {
        let records = try readRecords(TestFiles.fixture("no-final-newline.csv"))
        #expect(records.map(\.fields) == [["a", "b"], ["1", "2"], ["3", "4"]])
        #expect(records.last?.line == 3)
    }

    @Test func raggedRowsAreDeliveredWithTheirOwnFieldCount() throws {
        let records = try readRecords(TestFiles.fixture("ragged.csv"))
        #expect(records.map(\.fields.count) == [3, 3, 2, 4])
        #expect(records.map(\.line) == [1, 2, 3, 4])
    }

    @Test func emptyFileHasNoRecords() throws {
        #expect(try readRecords(TestFiles.fixture("empty.csv")).isEmpty)
    }

    @Test func unterminatedQuoteNamesFileAndLine() throws {
        let path = TestFiles.fixture("unterminated.csv")
        #expect(
            throws: CSVError.malformed(
                file: path, line: 3,
                detail: "a quoted field is never closed (a \" is missing before the end of the file)")
        ) {
            _ = try readRecords(path)
        }
    }

    @Test func strayQuoteNamesFileAndLine() throws {
        let path = TestFiles.fixture("stray-quote.csv")
        do {
            _ = try readRecords(path)
            Issue.record("a stray quote must fail")
        } catch let CSVError.malformed(file, line, _) {
            #expect(file == path)
            #expect(line == 3)
        }
    }

    @Test func missingFileIsASystemError() {
        #expect(throws: SystemError.self) { _ = try readRecords("/nonexistent/costs.csv") }
    }

    /// Every block size must give the same records and lines as one big block, since records
    /// and quoted newlines straddle block boundaries in real files.
    @Test(arguments: [1, 2, 3, 5, 7, 16, 64])
    func blockBoundariesDoNotChangeRecords(blockSize: Int) throws {
        let text = "\u{FEFF}id,note\r\n1,\"a,b\"\r\n2,\"x\ny\"\n\n3,\"\"\"q\"\"\"\n4,last"
        let bytes = Array(text.utf8)
        let whole = try parseInBlocks(bytes, blockSize: bytes.count)
        let split = try parseInBlocks(bytes, blockSize: blockSize)
        #expect(whole.map(\.fields) == split.map(\.fields))
        #expect(whole.map(\.line) == split.map(\.line))
        #expect(whole.map(\.fields) == [["id", "note"], ["1", "a,b"], ["2", "x\ny"], ["3", "\"q\""], ["4", "last"]])
        #expect(whole.map(\.line) == [1, 2, 3, 6, 7])
    }

    /// Differential: on unquoted input the reader must agree with a plain split on `\n` and `,`.
    @Test func agreesWithAPlainSplitterOnUnquotedInput() throws {
        var generator = SeededRandom(seed: 42)
        var lines: [[String]] = []
        for _ in 0..<3000 {
            let width = Int(generator.next() % 6) + 1
            lines.append(
                (0..<width).map { _ in
                    let length = Int(generator.next() % 12) + 1
                    return String((0..<length).map { _ in Character(Unicode.Scalar(UInt8(97 + generator.next() % 26))) })
                })
        }
        let text = lines.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
        let directory = try TestFiles.temporaryDirectory()
        let path = directory + "/generated.csv"
        try TestFiles.write(text, to: path)
        // Small blocks through the real file path too: 1 MiB would hold the whole file.
        let records = try readRecords(path)
        let reference = text.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(records.map(\.fields) == reference)
        #expect(records.map(\.line) == Array(1...reference.count))
        let blocks = try parseInBlocks(Array(text.utf8), blockSize: 997)
        #expect(blocks.map(\.fields) == reference)
    }
}
