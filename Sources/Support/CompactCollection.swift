/// Collections write their count, then their elements (`Codable` alone would not say how many follow).
///
/// Sets and dictionaries write theirs sorted by their encoded bytes (keys first), not in their
/// hash order, which differs from process to process: the same value always gives the same
/// bytes, so a step computed twice writes the same file.
protocol CompactCollection {
    func encodeCompact(_ encoder: CompactEncoder) throws
    static func decodeCompact(_ decoder: CompactDecoder) throws -> Self
}

extension Array: CompactCollection where Element: Codable {
    func encodeCompact(_ encoder: CompactEncoder) throws {
        // Bytes are written as they are. (The types are the same here: no cast of each element.)
        if Element.self == UInt8.self {
            let bytes = unsafeBitCast(self, to: [UInt8].self)
            encoder.writeUnsigned(UInt64(bytes.count))
            encoder.bytes += bytes
            return
        }
        encoder.writeUnsigned(UInt64(count))
        for element in self {
            try encoder.encodeValue(element)
            try encoder.handOnIfFull()
        }
    }

    static func decodeCompact(_ decoder: CompactDecoder) throws -> [Element] {
        let count = try decoder.readCount()
        if Element.self == UInt8.self { return unsafeBitCast(try decoder.readBytes(count), to: [Element].self) }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try decoder.decodeValue(Element.self)) }
        return elements
    }
}

extension Set: CompactCollection where Element: Codable {
    func encodeCompact(_ encoder: CompactEncoder) throws {
        var encoded: [[UInt8]] = []
        encoded.reserveCapacity(count)
        for element in self {
            let one = CompactEncoder()
            try one.encodeValue(element)
            encoded.append(one.bytes)
        }
        encoded.sort { $0.lexicographicallyPrecedes($1) }
        encoder.writeUnsigned(UInt64(count))
        for bytes in encoded { encoder.bytes += bytes }
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
        var encoded: [(key: [UInt8], pair: [UInt8])] = []
        encoded.reserveCapacity(count)
        for (key, value) in self {
            let one = CompactEncoder()
            try one.encodeValue(key)
            let keyBytes = one.bytes
            try one.encodeValue(value)
            encoded.append((keyBytes, one.bytes))
        }
        // Keys are distinct, so their bytes are: the order is total.
        encoded.sort { $0.key.lexicographicallyPrecedes($1.key) }
        encoder.writeUnsigned(UInt64(count))
        for entry in encoded { encoder.bytes += entry.pair }
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
