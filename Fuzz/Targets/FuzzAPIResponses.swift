import AppStoreAPI
import Support

/// What a server sent (a status, headers, a body), through the client's classification: never
/// a crash; only an Apple error body on a 4xx is a refusal; a 2xx is Apple's acceptance; a
/// redirect, a page that is not Apple's and Apple's retryable codes are tried again, and what
/// the journal quotes of a body stays short.
///
/// Input: two bytes of status (100 to 699), then header lines `name: value` up to an empty
/// line, then the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPIResponses(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    guard bytes.count >= 2 else { return 0 }
    let status = 100 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 600
    var headers: [String: String] = [:]
    var rest = bytes.dropFirst(2)
    while let end = rest.firstIndex(of: 0x0A) {
        let line = rest[rest.startIndex..<end]
        rest = rest[(end + 1)...]
        guard !line.isEmpty else { break }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
        let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
        headers[name] = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
    }
    let body = Array(rest)
    let verdict = ResponseVerdict.of(
        status: status, headers: headers, body: body, now: Timestamp(milliseconds: 1_790_812_800_000))
    switch verdict {
    case .accepted:
        precondition((200..<300).contains(status), "only a 2xx is accepted")
    case .refused(let code, _):
        precondition((400..<500).contains(status) && status != 401 && status != 429, "only a 4xx refuses")
        precondition(!ResponseVerdict.retryableCodes.contains(code), "a retryable code is never a refusal")
    case .unauthorized:
        precondition(status == 401, "only a 401 says the key is wrong")
    case .rateLimited(let wait):
        precondition(status == 429, "only a 429 is a rate limit")
        precondition(wait.map { $0 >= 0 } ?? true, "never a wait into the past")
    case .retry(let reason):
        precondition(!(200..<300).contains(status), "a 2xx is never retried")
        precondition(!reason.isEmpty, "a retry says why")
        precondition(
            reason.utf8.count < 3 * ResponseVerdict.quotedBytes + 400, "the journal quotes the first bytes of a body, not all")
        precondition(!reason.utf8.contains { $0 < 0x20 }, "a reason is one printable line")
    }
    return 0
}
