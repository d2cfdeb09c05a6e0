import Glibc
import Ingest
import Support

/// The input written as a whole cost file, as a gzip cost file and as a whole notification file
/// of a data folder, then read by ingestion as a run reads them: every line is a row, a record
/// or a reject, and damaged gzip data a clear error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIngestFiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let root = "/tmp/refund-cost-fuzz-\(getpid())"
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    do {
        try FileSystem.createDirectory(root + "/costs")
        try FileSystem.createDirectory(root + "/notifications")
        for path in [root + "/costs/c.csv", root + "/costs/g.csv.gz", root + "/notifications/n.jsonl"] {
            let file = try AtomicFileWriter(path: path)
            file.buffer.append(contentsOf: bytes)
            try file.commit()
        }
        let layout = try InputLayout(root: root)
        let rejects = RejectLog()
        let options = AppStoreOptions(asOf: .latestAccepted, signatures: SignaturePolicy(verify: false))
        _ = try AppStoreReader(options: options, rejects: rejects).read(layout)
        let reader = CostFileReader(rejects: rejects)
        for path in layout.costFiles { _ = try? reader.read(path: path) { _ in } }
    } catch {
        _ = "\(error)"
    }
    return 0
}
