import Ingest
import Support

/// Cost rows after a fixed header, through the checks every row gets: each record is accepted
/// or rejected with a reason, and request ids are claimed, without a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCostRows(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let header = "timestamp,account_id,category,cost,currency,quantity,unit,request_id\n"
    guard let columns = try? CostColumns(header: header.dropLast().split(separator: ",").map(String.init), file: "fuzz.csv", mapping: [:])
    else { fatalError("the fixed header has every column") }
    let checker = CostRowChecker(columns: columns, path: "fuzz.csv")
    let registry = RequestRegistry(shards: 2)
    let parser = CSVParser(file: "fuzz.csv", firstLine: 2, atFileStart: false)
    var summary = CostFileSummary(path: "fuzz.csv", bytes: size)
    do {
        let handle: (CSVRecord) throws -> Void = { record in
            if let reject = try checker.take(record, into: &summary, requests: registry, { _ in }) {
                precondition(!reject.reason.isEmpty, "a reject says why")
            }
        }
        try parser.feed(UnsafeRawBufferPointer(start: data, count: size), handle)
        try parser.finish(handle)
    } catch {
        _ = "\(error)"
    }
    precondition(summary.rows == summary.accepted + summary.rejected + summary.duplicates, "every row is counted once")
    return 0
}
