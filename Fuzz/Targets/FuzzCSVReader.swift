import Ingest

/// The libcsv reader fed the input in blocks of every size the input's first byte picks:
/// records, fields and line numbers must come out whatever the cuts, and nothing may crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let blockSize = max(1, Int(bytes.first ?? 1) % 64)
    let parser = CSVParser(file: "fuzz.csv")
    var fields = 0
    do {
        var offset = 0
        while offset < size {
            let end = min(size, offset + blockSize)
            try parser.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { record in
                precondition(record.line >= 1, "line numbers start at 1")
                for index in 0..<record.count { fields += record[index].count }
            }
            offset = end
        }
        try parser.finish { record in fields += record.count }
    } catch {
        // Malformed CSV is an error with a line, never a crash.
        _ = "\(error)"
    }
    return 0
}
