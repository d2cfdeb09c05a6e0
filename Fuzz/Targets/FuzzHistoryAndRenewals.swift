import Ingest
import Support

/// The fuzzed bytes as the payload inside Apple's shapes: an entry of a Get Notification
/// History page (beside a good entry, which must still be read) and the renewal info of a Get
/// All Subscription Statuses response. The fuzzer mutates the payload JSON itself, not the
/// base64 around it, so the decoders behind the page and the renewal info are reached.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHistoryAndRenewals(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let payload = Array(UnsafeRawBufferPointer(start: data, count: size))
    let header = Base64URL.encode(Array(#"{"alg":"ES256","x5c":[]}"#.utf8))
    let jws = header + "." + Base64URL.encode(payload) + ".c2ln"
    let good = header + "." + Base64URL.encode(Array(String.goodNotification.utf8)) + ".c2ln"
    let verifier = JWSVerifier(policy: SignaturePolicy(verify: false), verdicts: ChainVerdicts())
    let location = SourceLocation(file: "fuzz.jsonl", line: 1)

    let page =
        #"{"notificationHistory":[{"sendAttempts":[{"attemptDate":1790812800000,"sendAttemptResult":"SUCCESS"}],"signedPayload":""#
        + jws + #""},{"signedPayload":""# + good + #""}],"hasMore":false}"#
    var text = page
    let results = text.withUTF8 { decodeNotificationLine(UnsafeRawBufferPointer($0), at: location, verifier: verifier).results }
    precondition(results.count == 2, "a page of two entries gives two results, whatever one of them holds")
    if case .failure(let error) = results[1] { preconditionFailure("the good entry is read: \(error.reason)") }
    if case .failure(let error) = results[0] { precondition(!error.reason.isEmpty, "a refused entry says why") }

    var statuses =
        #"{"environment":"Production","data":[{"lastTransactions":[{"originalTransactionId":"1","status":1,"signedRenewalInfo":""#
        + jws + #""}]}]}"#
    let decoded = statuses.withUTF8 { bytes in
        Result { () throws(AppStoreDecodingError) in
            try decodeTransactionLine(UnsafeRawBufferPointer(bytes), at: location, verifier: verifier)
        }
    }
    if case .failure(let error) = decoded { precondition(!error.reason.isEmpty, "a rejected line says why") }
    return 0
}

extension String {
    fileprivate static let goodNotification =
        #"{"notificationType":"TEST","notificationUUID":"u-1","version":"2.0","signedDate":1790812800000,"data":{"environment":"Production","bundleId":"com.example.app"}}"#
}
