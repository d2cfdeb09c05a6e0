import Testing

@testable import Support

/// run.json says a run's configuration by encoding it: every field, in coding order, byte
/// strings by their digest, dictionaries by key.
@Suite("JSON from any Encodable")
struct JSONValueEncoderTests {
    struct Inner: Encodable {
        var limit = 3
        var roots: [[UInt8]] = [[1, 2, 3]]
        var names: [String] = []
        var table: [String: Int] = ["b": 2, "a": 1]
    }

    struct Outer: Encodable {
        var label = "2026-10"
        var on = true
        var inner = Inner()
        var missing: Int? = nil
    }

    @Test func everyFieldInCodingOrder() throws {
        let json = try JSONValueEncoder.encode(Outer()).compact
        // The SHA-256 of the bytes 01 02 03, worked out by hand with `printf '\x01\x02\x03' | sha256sum`.
        #expect(
            json
                == #"{"label":"2026-10","on":true,"inner":{"limit":3,"roots":["sha256:039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81"],"names":[],"table":{"a":1,"b":2}}}"#
        )
    }
}
