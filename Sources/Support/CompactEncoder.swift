final class CompactEncoder: Encoder {
    var bytes: [UInt8] = []
    /// Where the bytes go once they are `pieceBytes` or more, when the coded value is handed on
    /// as it is made (`CompactCoder.encode(_:pieces:to:)`).
    var sink: (([UInt8]) throws -> Void)?
    var pieceBytes = Int.max

    /// Hands the bytes coded so far to the sink once there are enough: called between a
    /// collection's elements.
    func handOnIfFull() throws {
        guard bytes.count >= pieceBytes, let sink else { return }
        try sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
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
