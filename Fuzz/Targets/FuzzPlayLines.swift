import Glibc
import Ingest
import Support

/// The input written as each of `play/`'s four folders' files, and as a gzip one, then read as
/// `validate` reads them: every line a record, a copy dropped or a reject, never a crash; the
/// lines read are the lines counted.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlayLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let root = "/tmp/refund-cost-fuzz-play-\(getpid())"
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    do {
        var files = InputLayout.PlayFiles()
        for folder in InputLayout.PlayFiles.folders {
            try FileSystem.createDirectory(root + "/play/" + folder)
        }
        for (folder, name) in [
            ("notifications", "n.jsonl"), ("voided", "v.jsonl"), ("orders", "o.jsonl"), ("purchases", "p.jsonl"),
        ] {
            let path = root + "/play/" + folder + "/" + name
            let file = try AtomicFileWriter(path: path)
            file.buffer.append(contentsOf: bytes)
            try file.commit()
            switch folder {
            case "notifications": files.notifications = [path]
            case "voided": files.voided = [path, root + "/play/voided/g.jsonl.gz"]
            case "orders": files.orders = [path]
            default: files.purchases = [path]
            }
        }
        let gzip = try AtomicFileWriter(path: root + "/play/voided/g.jsonl.gz")
        gzip.buffer.append(contentsOf: bytes)
        try gzip.commit()
        let input = try PlayInput.read(files, rejects: RejectLog())
        let lines = input.counts.lines
        precondition(lines.notifications == lines.orders && lines.orders == lines.purchases, "each file's lines counted once")
        precondition(input.counts.rejected >= 0 && input.voided.count <= lines.voided * 1000 + 1000)
    } catch {
        _ = "\(error)"
    }
    return 0
}
