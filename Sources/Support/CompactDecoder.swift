final class CompactDecoder: Decoder {
    /// The content at hand: all of it, or, when it is pulled from `source`, the part being read.
    private var bytes: [UInt8]
    /// Where the next value starts in `bytes`.
    private var position = 0
    /// How many bytes of the content came before `bytes`.
    private var before = 0
    /// How many bytes the content holds.
    private let size: Int
    /// Fills a buffer with the next bytes of the content, returning how many (0 at its end).
    private let source: ((UnsafeMutableRawBufferPointer) throws -> Int)?
    /// A record's repeated texts (its file's path, its product) share one string.
    private var strings = RepeatedStrings()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        size = bytes.count
        source = nil
    }

    /// A decoder of the `size` bytes `source` hands out, a chunk at a time: the content is never
    /// held whole.
    init(size: Int, source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        bytes = []
        self.size = size
        self.source = source
    }

    /// How many bytes of the content were read.
    var consumed: Int { before + position }

    /// Whether the content is read to its end.
    var isAtEnd: Bool { consumed == size }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let collection = type as? any CompactCollection.Type, let value = try collection.decodeCompact(self) as? T {
            return value
        }
        return try T(from: self)
    }

    /// Makes the next `count` bytes of the content be in `bytes` from `position` on, pulling
    /// them from the source (a megabyte or more at a time) when they are not.
    @inline(__always)
    private func require(_ count: Int) throws {
        if count > bytes.count - position { try pull(count) }
    }

    private func pull(_ count: Int) throws {
        guard let source, count <= size - consumed else { throw CompactCodingError.truncated }
        // What is read is let go; what is left moves to the front.
        bytes.removeSubrange(0..<position)
        before += position
        position = 0
        let start = bytes.count
        let wanted = min(max(count - start, 1 << 20), size - before - start)
        bytes.append(contentsOf: repeatElement(0, count: wanted))
        var filled = 0
        while filled < wanted {
            let got = try bytes.withUnsafeMutableBytes {
                try source(UnsafeMutableRawBufferPointer(rebasing: $0[(start + filled)...]))
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeLast(wanted - filled)
        guard bytes.count >= count else { throw CompactCodingError.truncated }
    }

    func readByte() throws -> UInt8 {
        try require(1)
        defer { position += 1 }
        return bytes[position]
    }

    func readUnsigned() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            guard shift < 64 else { throw CompactCodingError.invalid("a number longer than 64 bits") }
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    func readSigned() throws -> Int64 {
        let raw = try readUnsigned()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    func readCount() throws -> Int {
        let count = try readUnsigned()
        guard count <= UInt64(size - consumed) * 8 + 8 else { throw CompactCodingError.invalid("a count beyond the data") }
        return Int(count)
    }

    func readBytes(_ count: Int) throws -> [UInt8] {
        try require(count)
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    func readString() throws -> String {
        let count = try readCount()
        try require(count)
        defer { position += count }
        let start = position
        return bytes.withUnsafeBytes { strings.string(UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
    }

    func readInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let value = T.isSigned ? Int64(truncatingIfNeeded: try readSigned()) : Int64(bitPattern: try readUnsigned())
        guard let result = T.isSigned ? T(exactly: value) : T(exactly: UInt64(bitPattern: value)) else {
            throw CompactCodingError.invalid("\(value) does not fit \(T.self)")
        }
        return result
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedReader<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw CompactCodingError.invalid("an unkeyed container outside a collection")
    }

    func singleValueContainer() -> any SingleValueDecodingContainer { SingleReader(decoder: self) }
}

private struct SingleReader: SingleValueDecodingContainer {
    let decoder: CompactDecoder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.readByte() != 0 }
    func decode(_ type: String.Type) throws -> String { try decoder.readString() }
    func decode(_ type: Double.Type) throws -> Double { Double(bitPattern: try decoder.readUnsigned()) }
    func decode(_ type: Float.Type) throws -> Float { Float(bitPattern: UInt32(truncatingIfNeeded: try decoder.readUnsigned())) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.readInteger(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.readInteger(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.readInteger(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.readInteger(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.readSigned() }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.readInteger(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.readInteger(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.readInteger(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.readInteger(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.readUnsigned() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

private struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: CompactDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    private var single: SingleReader { SingleReader(decoder: decoder) }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { try decoder.readByte() == 0 }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try single.decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.readString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try single.decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try single.decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.readInteger(Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.readInteger(Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.readInteger(Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.readInteger(Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.readSigned() }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.readInteger(UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.readInteger(UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.readInteger(UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.readInteger(UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.readUnsigned() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.decodeValue(type) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decoder.readByte() == 0 ? nil : try decoder.decodeValue(type)
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present { try single.decode(type) } }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present { try single.decode(type) } }

    private func present<T>(_ read: () throws -> T) throws -> T? {
        try decoder.readByte() == 0 ? nil : try read()
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedDecodingContainer<NestedKey>
    {
        decoder.container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder.unkeyedContainer() }
    func superDecoder() -> any Decoder { decoder }
    func superDecoder(forKey key: Key) -> any Decoder { decoder }
}
