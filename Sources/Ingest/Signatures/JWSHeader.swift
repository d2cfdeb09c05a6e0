/// The members of a JWS header the checks read: `alg` and `x5c` (base64 DER, leaf first).
struct JWSHeader {
    var algorithm = ""
    var certificates: [[UInt8]] = []

    init(_ encoded: UnsafeRawBufferPointer) throws(SignatureError) {
        guard let json = Base64URL.decode(encoded) else { throw .notAJWS }
        var algorithm = ""
        var certificates: [[UInt8]] = []
        do {
            try json.withUnsafeBytes { bytes in
                var cursor = JSONCursor(bytes)
                try cursor.members { cursor, key in
                    if key == "alg" {
                        algorithm = try cursor.optionalString() ?? ""
                    } else if key == "x5c", !cursor.null() {
                        try cursor.elements { cursor, _ in
                            // Some signers escape the slashes of base64 (`\/`): read the string unescaped.
                            guard let der = Base64URL.decode(Array(try cursor.string().utf8)) else {
                                throw JSONError(reason: "not base64", field: "")
                            }
                            certificates.append(der)
                        }
                    } else {
                        try cursor.skip()
                    }
                }
            }
        } catch {
            throw .notAJWS
        }
        self.algorithm = algorithm
        self.certificates = certificates
    }
}
