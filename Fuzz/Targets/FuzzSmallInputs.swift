import Glibc
import Ingest
import Support

/// The input written as each of a data folder's small CSV files (accounts.csv, products.csv,
/// fx.csv, consent.csv and deliveries.csv), then read by each one's reader as a run reads it:
/// every line is a row or a reject, and a file that cannot be read a clear error, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSmallInputs(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let root = "/tmp/refund-cost-fuzz-\(getpid())"
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    func written(_ name: String) throws -> String {
        let file = try AtomicFileWriter(path: root + "/" + name)
        file.buffer.append(contentsOf: bytes)
        try file.commit()
        return root + "/" + name
    }
    do {
        try FileSystem.createDirectory(root)
        let rejects = RejectLog(keepingFirst: 5)
        let reads: [() throws -> Void] = [
            { _ = try AccountLinkReader.read(path: try written("accounts.csv"), rejects: rejects) },
            { _ = try ProductCatalogReader.read(path: try written("products.csv"), rejects: rejects) },
            { _ = try ExchangeRates.read(path: try written("fx.csv"), reportCurrency: .usd, rejects: rejects) },
            {
                _ = try ConsumptionEvidence.read(
                    consent: try written("consent.csv"), deliveries: try written("deliveries.csv"), rejects: rejects)
            },
        ]
        for read in reads {
            do { try read() } catch { _ = "\(error)" }
        }
    } catch {
        _ = "\(error)"
    }
    return 0
}
