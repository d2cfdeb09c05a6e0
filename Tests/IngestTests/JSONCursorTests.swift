import Testing

@testable import Ingest
@testable import Support
@testable import TestSupport

@Suite("JSON cursor and base64url")
struct JSONCursorTests {
    /// Reads the one string value of `{"k": ...}` written as `json`.
    func string(_ json: String) throws -> String {
        var text = json
        return try text.withUTF8 { bytes in
            var cursor = JSONCursor(UnsafeRawBufferPointer(bytes))
            var value = ""
            try cursor.members { cursor, _ in value = try cursor.string() }
            try cursor.finish()
            return value
        }
    }

    @Test(arguments: [
        (#"{"k":"plain"}"#, "plain"),
        (#"{"k":"a\nb\tc\rd"}"#, "a\nb\tc\rd"),
        (#"{"k":"quote \" and backslash \\ and slash \/"}"#, "quote \" and backslash \\ and slash /"),
        (#"{"k":"\u00e9t\u00E9"}"#, "été"),
        (#"{"k":"\ud83d\ude00 smile"}"#, "😀 smile"),
        (#"{"k":"\b\f"}"#, "\u{8}\u{C}"),
        (#"{"k":"ends with escaped backslash \\"}"#, "ends with escaped backslash \\"),
    ])
    func unescapesEveryEscapeJSONHas(json: String, expected: String) throws {
        #expect(try string(json) == expected)
    }

    @Test(arguments: [#"{"k":"\u12"}"#, #"{"k":"\uZZZZ"}"#, #"{"k":"never closed}"#])
    func badEscapesAndOpenStringsAreErrors(json: String) {
        #expect(throws: JSONError.self) { try string(json) }
    }

    /// RFC 4648 section 10, in the URL-safe alphabet, with and without padding.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func base64urlMatchesRFC4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(Array(encoded.utf8)) == Array(plain.utf8))
        let padding = String(repeating: "=", count: (4 - encoded.count % 4) % 4)
        #expect(Base64URL.decode(Array((encoded + padding).utf8)) == Array(plain.utf8))
    }

    /// Bytes 0xFB 0xFF use the two characters where the alphabets differ: `-_` in base64url,
    /// `+/` in plain base64; both decode.
    @Test func urlSafeAndPlainAlphabetsBothDecode() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode(Array("-_8".utf8)) == [0xFB, 0xFF])
        #expect(Base64URL.decode(Array("+/8=".utf8)) == [0xFB, 0xFF])
    }

    @Test(arguments: ["Z", "Zg===", "Zm9v!", "Zm 9v"])
    func notBase64IsRefused(text: String) {
        #expect(Base64URL.decode(Array(text.utf8)) == nil)
        #expect(Array(text.utf8).withUnsafeBytes { Base64URL.isValid($0) } == false)
    }

    /// The check without decoding accepts exactly what decoding accepts.
    @Test(arguments: ["", "Zg", "Zm8=", "Zm9vYmFy", "-_8", "+/8=", "Z", "Zg===", "Zm9v!", "Zm 9v", "Zm9vY\u{80}"])
    func checkingAgreesWithDecoding(text: String) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { Base64URL.isValid($0) } == (Base64URL.decode(bytes) != nil), "\(text)")
    }
}
