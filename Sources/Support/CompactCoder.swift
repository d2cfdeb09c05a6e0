/// A compact binary form of `Codable` values, for the files the tool writes for itself
/// (snapshots, partials): values one after the other in the order `Codable` visits them, with
/// no field names.
///
/// Integers are zigzag varints, strings and byte arrays carry their length, an
/// optional a presence byte, and collections (arrays, sets, dictionaries) their count.
///
/// It is not self-describing: a file is read by the same types that wrote it, which the packed
/// file's format version guarantees.
package enum CompactCoder {
    package static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = CompactEncoder()
        try encoder.encodeValue(value)
        return encoder.bytes
    }

    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let decoder = CompactDecoder(bytes)
        let value = try decoder.decodeValue(type)
        guard decoder.position == bytes.count else { throw CompactCodingError.trailingBytes }
        return value
    }
}

package enum CompactCodingError: Error, CustomStringConvertible {
    case truncated
    case trailingBytes
    case invalid(String)

    package var description: String {
        switch self {
        case .truncated: "the data ends early"
        case .trailingBytes: "bytes follow the data"
        case .invalid(let what): what
        }
    }
}

/// Collections write their count, then their elements (`Codable` alone would not say how many
/// follow).
protocol CompactCollection {
    func encodeCompact(_ encoder: CompactEncoder) throws
    static func decodeCompact(_ decoder: CompactDecoder) throws -> Self
}

extension Array: CompactCollection where Element: Codable {
    func encodeCompact(_ encoder: CompactEncoder) throws {
        if let bytes = self as? [UInt8] {
            encoder.writeUnsigned(UInt64(bytes.count))
            encoder.bytes += bytes
            return
        }
        encoder.writeUnsigned(UInt64(count))
        for element in self { try encoder.encodeValue(element) }
    }

    static func decodeCompact(_ decoder: CompactDecoder) throws -> [Element] {
        let count = try decoder.readCount()
        if Element.self == UInt8.self, let bytes = try decoder.readBytes(count) as? [Element] { return bytes }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try decoder.decodeValue(Element.self)) }
        return elements
    }
}

extension Set: CompactCollection where Element: Codable {
    func encodeCompact(_ encoder: CompactEncoder) throws {
        encoder.writeUnsigned(UInt64(count))
        for element in self { try encoder.encodeValue(element) }
    }

    static func decodeCompact(_ decoder: CompactDecoder) throws -> Set<Element> {
        let count = try decoder.readCount()
        var elements = Set<Element>(minimumCapacity: count)
        for _ in 0..<count { elements.insert(try decoder.decodeValue(Element.self)) }
        return elements
    }
}

extension Dictionary: CompactCollection where Key: Codable, Value: Codable {
    func encodeCompact(_ encoder: CompactEncoder) throws {
        encoder.writeUnsigned(UInt64(count))
        for (key, value) in self {
            try encoder.encodeValue(key)
            try encoder.encodeValue(value)
        }
    }

    static func decodeCompact(_ decoder: CompactDecoder) throws -> [Key: Value] {
        let count = try decoder.readCount()
        var dictionary = [Key: Value](minimumCapacity: count)
        for _ in 0..<count {
            let key = try decoder.decodeValue(Key.self)
            dictionary[key] = try decoder.decodeValue(Value.self)
        }
        return dictionary
    }
}

extension Optional: CompactCollection where Wrapped: Codable {
    func encodeCompact(_ encoder: CompactEncoder) throws {
        guard let value = self else {
            encoder.bytes.append(0)
            return
        }
        encoder.bytes.append(1)
        try encoder.encodeValue(value)
    }

    static func decodeCompact(_ decoder: CompactDecoder) throws -> Wrapped? {
        try decoder.readByte() == 0 ? nil : try decoder.decodeValue(Wrapped.self)
    }
}

final class CompactEncoder: Encoder {
    var bytes: [UInt8] = []
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func encodeValue<T: Encodable>(_ value: T) throws {
        if let collection = value as? any CompactCollection {
            try collection.encodeCompact(self)
        } else {
            try value.encode(to: self)
        }
    }

    func writeUnsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    func writeSigned(_ value: Int64) {
        writeUnsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    func writeString(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            writeUnsigned(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedWriter<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedWriter(encoder: self) }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleWriter(encoder: self) }
}

private struct SingleWriter: SingleValueEncodingContainer {
    let encoder: CompactEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder.bytes.append(0) }
    mutating func encode(_ value: Bool) throws { encoder.bytes.append(value ? 1 : 0) }
    mutating func encode(_ value: String) throws { encoder.writeString(value) }
    mutating func encode(_ value: Double) throws { encoder.writeUnsigned(value.bitPattern) }
    mutating func encode(_ value: Float) throws { encoder.writeUnsigned(UInt64(value.bitPattern)) }
    mutating func encode(_ value: Int) throws { encoder.writeSigned(Int64(value)) }
    mutating func encode(_ value: Int8) throws { encoder.writeSigned(Int64(value)) }
    mutating func encode(_ value: Int16) throws { encoder.writeSigned(Int64(value)) }
    mutating func encode(_ value: Int32) throws { encoder.writeSigned(Int64(value)) }
    mutating func encode(_ value: Int64) throws { encoder.writeSigned(value) }
    mutating func encode(_ value: UInt) throws { encoder.writeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.writeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.writeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.writeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.writeUnsigned(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}

/// Fields in the order `Codable` writes them; an optional field gets a presence byte.
private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: CompactEncoder
    var codingPath: [any CodingKey] { [] }

    private var single: SingleWriter { SingleWriter(encoder: encoder) }

    mutating func encodeNil(forKey key: Key) throws { encoder.bytes.append(0) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { var s = single; try s.encode(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.writeString(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { var s = single; try s.encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { var s = single; try s.encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.writeSigned(Int64(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.writeSigned(Int64(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.writeSigned(Int64(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.writeSigned(Int64(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.writeSigned(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.writeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.writeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.writeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.writeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.writeUnsigned(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.encodeValue(value) }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else {
            encoder.bytes.append(0)
            return
        }
        encoder.bytes.append(1)
        try encoder.encodeValue(value)
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value) }

    private func present<T: Encodable>(_ value: T?) throws {
        guard let value else {
            encoder.bytes.append(0)
            return
        }
        encoder.bytes.append(1)
        var s = single
        try s.encode(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

/// Only for values whose count is known first: collections go through `CompactCollection`.
private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let encoder: CompactEncoder
    var codingPath: [any CodingKey] { [] }
    var count = 0

    mutating func encodeNil() throws { throw CompactCodingError.invalid("an unkeyed container outside a collection") }
    mutating func encode<T: Encodable>(_ value: T) throws {
        throw CompactCodingError.invalid("an unkeyed container outside a collection (\(T.self))")
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder.container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { encoder }
}

final class CompactDecoder: Decoder {
    let bytes: [UInt8]
    var position = 0
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let collection = type as? any CompactCollection.Type, let value = try collection.decodeCompact(self) as? T {
            return value
        }
        return try T(from: self)
    }

    func readByte() throws -> UInt8 {
        guard position < bytes.count else { throw CompactCodingError.truncated }
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
        guard count <= UInt64(bytes.count - position) * 8 + 8 else { throw CompactCodingError.invalid("a count beyond the data") }
        return Int(count)
    }

    func readBytes(_ count: Int) throws -> [UInt8] {
        guard count <= bytes.count - position else { throw CompactCodingError.truncated }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    func readString() throws -> String {
        let count = try readCount()
        guard count <= bytes.count - position else { throw CompactCodingError.truncated }
        defer { position += count }
        return String(decoding: bytes[position..<position + count], as: UTF8.self)
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
