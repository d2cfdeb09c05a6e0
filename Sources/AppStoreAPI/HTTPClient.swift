internal import CCurl
import Support

/// HTTP over libcurl: TLS verified against the system's CA store, a connect timeout of 10 s
/// and a whole-request timeout of 30 s, response bodies capped at 1 MiB, proxies from the
/// usual environment variables (`https_proxy`, `no_proxy`), as libcurl reads them.
///
/// One client, one connection reused between requests; not shared between threads.
package final class HTTPClient {
    private let handle: UnsafeMutableRawPointer
    static let largestBody = 1 << 20

    package init() throws(HTTPError) {
        HTTPClient.initializeOnce
        guard let handle = curl_easy_init() else { throw HTTPError(description: "libcurl could not start") }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    /// libcurl's global state, set up once per process before the first handle.
    private static let initializeOnce: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Sends `request`; `timeout` is the whole request's limit in seconds (at most 30).
    package func send(_ request: HTTPRequest, timeout: Double = 30) -> Result<HTTPResponse, HTTPError> {
        curl_easy_reset(handle)
        let sink = ResponseSink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for (name, value) in request.headers { headerList = curl_slist_append(headerList, "\(name): \(value)") }
        // libcurl adds `Expect: 100-continue` to larger PUT bodies; the API needs no such round trip.
        headerList = curl_slist_append(headerList, "Expect:")

        let url = request.url
        let method = request.method
        let body = request.body
        let status: CURLcode = url.withCString { urlText in
            method.withCString { methodText in
                body.withUnsafeBufferPointer { bodyBytes in
                    refund_cost_curl_pointer(handle, CURLOPT_URL, urlText)
                    refund_cost_curl_pointer(handle, CURLOPT_CUSTOMREQUEST, methodText)
                    refund_cost_curl_pointer(handle, CURLOPT_HTTPHEADER, headerList)
                    if !body.isEmpty || method == "POST" || method == "PUT" {
                        refund_cost_curl_pointer(
                            handle, CURLOPT_POSTFIELDS, bodyBytes.baseAddress ?? UnsafePointer(bitPattern: 1))
                        refund_cost_curl_long(handle, CURLOPT_POSTFIELDSIZE, body.count)
                    }
                    refund_cost_curl_long(handle, CURLOPT_CONNECTTIMEOUT_MS, 10_000)
                    refund_cost_curl_long(handle, CURLOPT_TIMEOUT_MS, Int(min(30, max(0.05, timeout)) * 1000))
                    refund_cost_curl_long(handle, CURLOPT_NOSIGNAL, 1)
                    refund_cost_curl_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
                    refund_cost_curl_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
                    refund_cost_curl_long(handle, CURLOPT_FOLLOWLOCATION, 0)
                    refund_cost_curl_pointer(handle, CURLOPT_WRITEDATA, context)
                    refund_cost_curl_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                        guard let data, let context else { return 0 }
                        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
                        let length = size * count
                        // Returning less than was given makes libcurl stop with CURLE_WRITE_ERROR.
                        guard sink.body.count + length <= HTTPClient.largestBody else {
                            sink.overflowed = true
                            return 0
                        }
                        sink.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
                        return length
                    }
                    refund_cost_curl_pointer(handle, CURLOPT_HEADERDATA, context)
                    refund_cost_curl_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                        guard let data, let context else { return 0 }
                        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
                        let length = size * count
                        sink.header(UnsafeRawBufferPointer(start: data, count: length))
                        return length
                    }
                    return curl_easy_perform(handle)
                }
            }
        }
        if sink.overflowed {
            return .failure(HTTPError(description: "the response is larger than \(HTTPClient.largestBody >> 20) MiB"))
        }
        guard status == CURLE_OK else {
            let detail = String(cString: curl_easy_strerror(status))
            return .failure(HTTPError(description: detail))
        }
        var code = 0
        refund_cost_curl_response_code(handle, &code)
        return .success(HTTPResponse(status: code, headers: sink.headers, body: sink.body))
    }
}

/// Where libcurl's callbacks put the response.
private final class ResponseSink {
    var body: [UInt8] = []
    var headers: [String: String] = [:]
    var overflowed = false

    /// One header line; a new status line (after a redirect or `100 Continue`) starts afresh.
    func header(_ line: UnsafeRawBufferPointer) {
        // Bytes, not Characters: "\r\n" is one Character to Swift, and trims as none of its parts.
        let bytes = Array(line)
        if bytes.starts(with: Array("HTTP/".utf8)) {
            headers = [:]
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var value = bytes[(colon + 1)...]
        while let first = value.first, isSpace(first) { value = value.dropFirst() }
        while let last = value.last, isSpace(last) { value = value.dropLast() }
        headers[String(decoding: bytes[..<colon], as: UTF8.self).lowercased()] = String(decoding: value, as: UTF8.self)
    }
}
