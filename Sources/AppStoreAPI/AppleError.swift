import Ingest

/// Apple's error body: `{"errorCode": 4000185, "errorMessage": "..."}`.
struct AppleError {
    var code: Int?
    var message: String?

    init(_ body: [UInt8]) {
        var code: Int?
        var message: String?
        body.withUnsafeBytes { bytes in
            var cursor = JSONCursor(bytes)
            try? cursor.members { cursor, key in
                if key == "errorCode" {
                    code = Int(try cursor.lenientInteger())
                } else if key == "errorMessage" {
                    message = try cursor.optionalString()
                } else {
                    try cursor.skip()
                }
            }
        }
        self.code = code
        self.message = message
    }
}
