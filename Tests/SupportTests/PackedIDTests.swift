import Foundation
import Testing

@testable import Support

@Suite("Packed ids")
struct PackedIDTests {
    static let ids = [
        "", "7", "07", "123456789012345", "2000000123456789", "0000000000000000", "02000000123456789",
        "12345678901234567", "9999999999999999999", "18446744073709551616", "1234567890123456789012345678",
        "12345678901234567890123456789", "\u{0}", "\u{0}12", "\u{0}\u{0}", "\u{0}2000000123456789",
        "２０００００００１２３４５６７８９", "200000012345678a", "2000000123456789 ", "tx-\u{E9}", "tx-e\u{301}",
        "GPA.1234-5678-9012-34567",
    ]

    @Test func everyIdComesBackAsItsBytes() {
        for id in Self.ids {
            let back = PackedID(id).text
            #expect(Array(back.utf8) == Array(id.utf8), "\(Array(id.utf8))")
        }
    }

    /// Two ids are the same packed exactly when their bytes are (the two Unicode forms of
    /// "tx-é" are two ids), and the order of the forms agrees.
    @Test func idsAreEqualExactlyWhenTheirBytesAre() {
        for a in Self.ids {
            for b in Self.ids {
                let same = a.bytesEqual(b)
                #expect((PackedID(a) == PackedID(b)) == same, "\(Array(a.utf8)) against \(Array(b.utf8))")
                #expect((PackedID(a) < PackedID(b) || PackedID(b) < PackedID(a)) == !same)
                if same { #expect(PackedID(a).hashValue == PackedID(b).hashValue) }
            }
        }
        #expect(Set(Self.ids.map(PackedID.init)).count == Self.ids.count)
    }

    /// Digits packed to the bytes worked out by hand, fifteen at most.
    ///
    /// Apple's 16 digits: a zero byte, then each two digits `ab` as `10a + b + 1`; an odd last
    /// digit `d` as `101 + d`. Fifteen bytes at most, so the form needs no memory of its own.
    @Test func digitsArePackedTwoToAByte() {
        #expect(Array(PackedID("2000000123456789").form.utf8) == [0, 21, 1, 1, 2, 24, 46, 68, 90])
        #expect(Array(PackedID("12345678901234567").form.utf8) == [0, 13, 35, 57, 79, 91, 13, 35, 57, 108])
        #expect(Array(PackedID("0000000000000000").form.utf8) == [0, 1, 1, 1, 1, 1, 1, 1, 1])
        #expect(PackedID("1234567890123456789012345678").form.utf8.count == 15)
        // Fewer digits fit as they are; more would not fit packed; a real zero byte is doubled.
        #expect(PackedID("123456789012345").form == "123456789012345")
        #expect(PackedID("12345678901234567890123456789").form == "12345678901234567890123456789")
        #expect(Array(PackedID("\u{0}12").form.utf8) == [0, 0, 49, 50])
    }

    /// An id made from a file's bytes is the one made from their text; an invalid byte reads as
    /// U+FFFD, as the text made from them does.
    @Test func anIdFromBytesIsTheIdOfTheirText() {
        var cases = Self.ids.map { Array($0.utf8) }
        cases += [[0x32, 0x30, 0xFF, 0x31], [0xC3], Array("2000000123456789".utf8) + [0x80]]
        for bytes in cases {
            let fromBytes = bytes.withUnsafeBytes { PackedID(utf8: $0) }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(fromBytes == PackedID(text), "\(bytes)")
            #expect(Array(fromBytes.text.utf8) == Array(text.utf8))
        }
        // Apple's 16 digits packed from bytes as from text: a zero byte and eight of two digits.
        let apple = Array("2000000123456789".utf8).withUnsafeBytes { PackedID(utf8: $0) }
        #expect(Array(apple.form.utf8) == [0, 21, 1, 1, 2, 24, 46, 68, 90])
    }

    /// An id codes as its text alone, in the step files' coding and in JSON: a record that holds
    /// it packed codes to the bytes it did holding the text, and reads back the same id.
    @Test func anIdCodesAsItsText() throws {
        for id in Self.ids {
            let packed = PackedID(id)
            let coded = try CompactCoder.encode(packed)
            #expect(coded == (try CompactCoder.encode(id)), "\(Array(id.utf8))")
            #expect(try CompactCoder.decode(PackedID.self, from: coded) == packed)
            let json = try JSONEncoder().encode([packed])
            #expect(json == (try JSONEncoder().encode([id])))
            #expect(try JSONDecoder().decode([PackedID].self, from: json) == [packed])
        }
    }
}
