/// Any `Encodable` value as a `JSONValue`, its members in the order `encode(to:)` writes them.
///
/// What run.json says of a run's configuration is its configuration, every field of it, with
/// nothing listed by hand. Byte strings (certificates) are written as their SHA-256.
package enum JSONValueEncoder {
    package static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = Node()
        try Self.record(value, into: node)
        return node.finished
    }

    fileprivate final class Node {
        var value = JSONValue.null
        var members: [(String, Node)] = []
        var elements: [Node] = []
        var kind = 0  // 0 single, 1 keyed, 2 unkeyed
        /// A dictionary's members, whose order is a hash's: written sorted by key.
        var sorted = false

        var finished: JSONValue {
            switch kind {
            case 1:
                .object((sorted ? members.sorted { $0.0.bytesPrecede($1.0) } : members).map { ($0.0, $0.1.finished) })
            case 2: .array(elements.map(\.finished))
            default: value
            }
        }
    }

    fileprivate static func record<T: Encodable>(_ value: T, into node: Node) throws {
        // An empty array casts to every element type: byte strings are known by their type.
        if T.self == [UInt8].self, let bytes = value as? [UInt8] {
            node.value = .string("sha256:" + bytes.withUnsafeBytes(SHA256.digest))
            return
        }
        switch value {
        case let bool as Bool: node.value = .bool(bool)
        case let text as String: node.value = .string(text)
        case let number as Int: node.value = .integer(Int64(number))
        case let number as Int64: node.value = .integer(number)
        case let number as Int32: node.value = .integer(Int64(number))
        case let number as UInt32: node.value = .integer(Int64(number))
        case let number as UInt8: node.value = .integer(Int64(number))
        case let number as UInt64: node.value = .number(String(number))
        case let number as Double: node.value = .number(String(number))
        default: try value.encode(to: ValueEncoder(node: node))
        }
    }
}

private struct ValueEncoder: Encoder {
    let node: JSONValueEncoder.Node
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.kind = 1
        node.sorted = String(describing: Key.self).contains("DictionaryCodingKey")
        return KeyedEncodingContainer(Keyed<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.kind = 2
        return Unkeyed(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node) }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONValueEncoder.Node
    var codingPath: [any CodingKey] = []

    private func member(_ key: Key) -> JSONValueEncoder.Node {
        let child = JSONValueEncoder.Node()
        node.members.append((key.stringValue, child))
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { member(key).value = .null }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try JSONValueEncoder.record(value, into: member(key))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        ValueEncoder(node: member(key)).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ValueEncoder(node: member(key)).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { ValueEncoder(node: node) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ValueEncoder(node: member(key)) }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let node: JSONValueEncoder.Node
    var codingPath: [any CodingKey] = []
    var count: Int { node.elements.count }

    private func element() -> JSONValueEncoder.Node {
        let child = JSONValueEncoder.Node()
        node.elements.append(child)
        return child
    }

    mutating func encodeNil() throws { element().value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { try JSONValueEncoder.record(value, into: element()) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        ValueEncoder(node: element()).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { ValueEncoder(node: element()).unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { ValueEncoder(node: element()) }
}

private struct Single: SingleValueEncodingContainer {
    let node: JSONValueEncoder.Node
    var codingPath: [any CodingKey] = []

    mutating func encodeNil() throws { node.value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { try JSONValueEncoder.record(value, into: node) }
}
