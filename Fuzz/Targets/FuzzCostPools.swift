import Glibc
import Ingest
import Support

/// The input read as a FOCUS bill and as allocation.csv, then every pool row matched against
/// the lines: each row is a pool row or a reject, each line a line or an error naming it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCostPools(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let root = "/tmp/refund-cost-fuzz-pools-\(getpid())"
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    do {
        try FileSystem.createDirectory(root)
        for path in [root + "/bill.csv", root + "/allocation.csv"] {
            let file = try AtomicFileWriter(path: path)
            file.buffer.append(contentsOf: bytes)
            try file.commit()
        }
        let bill = try FocusPoolFile.read(path: root + "/bill.csv")
        precondition(bill.rows.count + bill.rejects.count <= bill.lines, "a pool row was counted twice")
        _ = FocusPoolFile.isPoolFile(root + "/bill.csv")
        let rules = try AllocationRules(path: root + "/allocation.csv")
        for row in bill.rows { _ = try? rules.line(for: row) }
    } catch {
        _ = "\(error)"
    }
    return 0
}
