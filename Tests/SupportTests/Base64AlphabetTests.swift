import Testing

@testable import Support

@Suite("Base64 alphabet")
struct Base64AlphabetTests {
    static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/".utf8)

    /// Every byte value, at every place of texts long and short enough to be checked many bytes
    /// a step and one at a time: the one byte outside the alphabet is always found.
    @Test func everyByteOutsideTheAlphabetIsFoundWhereverItIs() {
        var missed: [String] = []
        for length in [1, 7, 15, 16, 17, 31, 32, 33, 64, 100, 257] {
            let text = [UInt8]((0..<length).map { Array(Self.alphabet.sorted())[$0 % Self.alphabet.count] })
            #expect(text.withUnsafeBytes { Base64Alphabet.containsOnly($0) })
            for byte in 0...255 {
                let inside = Self.alphabet.contains(UInt8(byte))
                for place in Set([0, length / 2, length - 1]) {
                    var spoiled = text
                    spoiled[place] = UInt8(byte)
                    if spoiled.withUnsafeBytes({ Base64Alphabet.containsOnly($0) }) != inside {
                        missed.append("byte \(byte) at \(place) of \(length)")
                    }
                }
            }
        }
        #expect(missed.isEmpty, "\(missed.prefix(5))")
        #expect([UInt8]().withUnsafeBytes { Base64Alphabet.containsOnly($0) })
        #expect(!Array("abc=".utf8).withUnsafeBytes { Base64Alphabet.containsOnly($0) })
    }
}
