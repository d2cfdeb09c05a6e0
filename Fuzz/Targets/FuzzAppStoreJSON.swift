import Ingest
import Support

/// One line of notifications/ and of transactions/, decoded: a record or a rejected line with a
/// field and a reason, never a crash, whatever the nesting, escapes or numbers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppStoreJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let location = SourceLocation(file: "fuzz.jsonl", line: 1)
    // Signatures off, so decoding goes as deep as the payloads lead (FuzzJWS checks signatures).
    let verifier = JWSVerifier(policy: SignaturePolicy(verify: false), verdicts: ChainVerdicts())
    for result in decodeNotificationLine(bytes, at: location, verifier: verifier).results {
        switch result {
        case .success(let decoded): precondition(!decoded.notification.uuid.isEmpty, "a notification has an id")
        case .failure(let error): precondition(!error.reason.isEmpty, "a rejected line says why")
        }
    }
    do {
        _ = try decodeTransactionLine(bytes, at: location, verifier: verifier)
    } catch {
        precondition(!error.reason.isEmpty, "a rejected line says why")
    }
    var cursor = JSONCursor(bytes)
    _ = try? cursor.skip()
    return 0
}
