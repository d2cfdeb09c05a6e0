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
