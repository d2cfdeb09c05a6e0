import Testing

@testable import Support
@testable import TestSupport

@Suite("CSV writer")
struct CSVWriterTests {
    @Test func quotesOnlyWhatNeedsIt() {
        #expect(
            CSVEncoding.line(["plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", ""])
                == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",")
    }

    @Test func guardsTextThatASpreadsheetWouldRun() {
        #expect(CSVEncoding.line(["=SUM(A1)", "+1", "-2", "@x", "\tx", "ok=1"]) == "'=SUM(A1),'+1,'-2,'@x,'\tx,ok=1")
        // Guarded and quoted: the apostrophe goes inside the quotes.
        #expect(CSVEncoding.line(["=1,2"]) == "\"'=1,2\"")
    }

    @Test func numbersAreNeverGuarded() throws {
        let directory = try TestFiles.temporaryDirectory()
        let path = directory + "/out.csv"
        let writer = try CSVFileWriter(path: path, header: ["id", "cost", "at", "ok"])
        writer.text("-acct")
        writer.money(Money(nanos: -1_500_000_000))
        writer.timestamp(Timestamp(milliseconds: 0))
        writer.bool(true)
        try writer.endRow()
        writer.text("b")
        writer.empty()
        writer.timestamp(nil)
        writer.bool(false)
        try writer.endRow()
        try writer.commit()
        #expect(try TestFiles.read(path) == "id,cost,at,ok\n'-acct,-1.500000,1970-01-01T00:00:00.000Z,true\nb,,,false\n")
    }

    @Test func nothingIsVisibleBeforeCommit() throws {
        let directory = try TestFiles.temporaryDirectory()
        let path = directory + "/out.csv"
        do {
            let writer = try CSVFileWriter(path: path, header: ["a"])
            writer.text("x")
            try writer.endRow()
            #expect(!FileSystem.exists(path))
        }
        // Dropped without commit: no file and no temporary left behind.
        #expect(!FileSystem.exists(path))
        #expect(try FileSystem.list(directory).isEmpty)
    }
}
