import Ingest
import Support

/// Cost rows after a fixed header, through the checks every row gets: each record is accepted
/// or rejected with a reason, and request ids are claimed, without a crash. The first byte
/// picks the format (this tool's own, or an export read with `--cost-format`), so exponent
/// costs, summed token columns and rows without a user are fuzzed too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCostRows(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let formats: [(CostFormat, String)] = [
        (.plain, "timestamp,account_id,category,cost,currency,quantity,unit,request_id"),
        (.helicone, "request_created_at,request_user_id,model,cost,prompt_tokens,completion_tokens,response_id"),
        (.langfuse, "start_time,user_id,provided_model_name,total_cost,id"),
        (.openmeter, ""),
    ]
    let (format, header) = formats[Int(data[0]) % formats.count]
    if format == .openmeter { return fuzzEvents(data + 1, size - 1) }
    guard
        let columns = try? CostColumns(
            header: header.split(separator: ",").map(String.init), file: "fuzz.csv", mapping: [:], format: format)
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
        try parser.feed(UnsafeRawBufferPointer(start: data + 1, count: size - 1), handle)
        try parser.finish(handle)
    } catch {
        _ = "\(error)"
    }
    precondition(summary.rows == summary.accepted + summary.rejected + summary.duplicates, "every row is counted once")
    return 0
}

/// OpenMeter events, one JSON object a line, priced from a small price table.
func fuzzEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var map = CostColumnMap(rules: [])
    map.formats = [.init(glob: nil, format: .openmeter)]
    map.usageField = "tokens"
    guard let checker = try? CostRowChecker.forFile("fuzz.jsonl", mapping: map, prices: PriceTable()) else {
        fatalError("an events file needs no header")
    }
    let registry = RequestRegistry(shards: 2)
    var summary = CostFileSummary(path: "fuzz.jsonl", bytes: size)
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var line = 0
    for piece in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        line += 1
        let slice = UnsafeRawBufferPointer(rebasing: piece)
        if let reject = try? checker.takeEvent(line: line, bytes: slice, into: &summary, requests: registry, { _ in }) {
            precondition(!reject.reason.isEmpty, "a reject says why")
        }
    }
    precondition(summary.rows == summary.accepted + summary.rejected + summary.duplicates, "every row is counted once")
    return 0
}
