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
}
