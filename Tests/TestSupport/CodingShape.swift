/// The shape of a value's `Codable` encoding, its values left out.
///
/// Every key in the order `encode(to:)` visits it, every primitive's type, every element shape
/// of an array, as one canonical text. Two values of a type whose layout is the same have the same shape whatever
/// they hold (as long as the same optionals are present), so a digest of the shape of a fixed
/// value changes exactly when a packed format's layout does.
enum CodingShape {
    static func of<T: Encodable>(_ value: T) throws -> String {
        let root = ShapeNode()
        try value.encode(to: ShapeEncoder(node: root))
        return root.text
    }
}

/// What an encoder recorded at one place.
private final class ShapeNode {
    enum Kind {
        case unknown
        case primitive(String)
        case keyed([(String, ShapeNode)])
        case unkeyed([ShapeNode])
    }

    var kind = Kind.unknown

    var text: String {
        switch kind {
        case .unknown: return "?"
        case .primitive(let name): return name
        case .keyed(let members): return "{" + members.map { "\($0.0):\($0.1.text)" }.joined(separator: ",") + "}"
        case .unkeyed(let elements):
            // The distinct element shapes, sorted: how many elements there are is a value.
            return "[" + Set(elements.map(\.text)).sorted().joined(separator: "|") + "]"
        }
    }

    func keyed(_ key: String) -> ShapeNode {
        let child = ShapeNode()
        if case .keyed(var members) = kind {
            members.append((key, child))
            kind = .keyed(members)
        } else {
            kind = .keyed([(key, child)])
        }
        return child
    }

    func element() -> ShapeNode {
        let child = ShapeNode()
        if case .unkeyed(var elements) = kind {
            elements.append(child)
            kind = .unkeyed(elements)
        } else {
            kind = .unkeyed([child])
        }
        return child
    }
}

private struct ShapeEncoder: Encoder {
    let node: ShapeNode
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A dictionary's keys are its values: its members are shaped as an array's elements.
        let dictionary = String(describing: Key.self).contains("DictionaryCodingKey")
        if case .unknown = node.kind { node.kind = dictionary ? .unkeyed([]) : .keyed([]) }
        return KeyedEncodingContainer(KeyedShape<Key>(node: node, dictionary: dictionary))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unknown = node.kind { node.kind = .unkeyed([]) }
        return UnkeyedShape(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleShape(node: node) }
}

private func primitiveName<T>(_ type: T.Type) -> String {
    switch type {
    case is Bool.Type: "Bool"
    case is String.Type: "String"
    case is Double.Type, is Float.Type: "Float"
    case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type: "Int"
    default: "UInt"
    }
}

private func record<T: Encodable>(_ value: T, into node: ShapeNode) throws {
    switch value {
    case is Bool: node.kind = .primitive("Bool")
    case is String: node.kind = .primitive("String")
    case is Double, is Float: node.kind = .primitive("Float")
    case is Int, is Int8, is Int16, is Int32, is Int64: node.kind = .primitive("Int")
    case is UInt, is UInt8, is UInt16, is UInt32, is UInt64: node.kind = .primitive("UInt")
    // By type, not by `is`: an empty array of any element type casts to [UInt8].
    case _ where T.self == [UInt8].self: node.kind = .primitive("Bytes")
    default: try value.encode(to: ShapeEncoder(node: node))
    }
}

private struct KeyedShape<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: ShapeNode
    let dictionary: Bool
    var codingPath: [any CodingKey] = []

    /// Where the member of `key` is recorded.
    private func member(_ key: Key) -> ShapeNode { dictionary ? node.element() : node.keyed(key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { member(key).kind = .primitive("nil") }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try record(value, into: member(key)) }

    // An optional is its key and a presence mark, whether it holds a value or not (the compact
    // coding writes a presence byte either way), and its value's shape when it holds one.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        let node = member(key)
        if let value { try record(value, into: node) }
        if case .primitive(let name) = node.kind {
            node.kind = .primitive(name + "?")
        } else if value == nil {
            node.kind = .primitive("?")
        }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try optional(value, key) }

    /// A primitive optional: its type is known whether it holds a value or not.
    private mutating func optional<T: Encodable>(_ value: T?, _ key: Key) throws {
        member(key).kind = .primitive(primitiveName(T.self) + "?")
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        ShapeEncoder(node: member(key)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ShapeEncoder(node: member(key)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { ShapeEncoder(node: node.keyed("super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ShapeEncoder(node: member(key)) }
}

private struct UnkeyedShape: UnkeyedEncodingContainer {
    let node: ShapeNode
    var codingPath: [any CodingKey] = []
    var count = 0

    mutating func encodeNil() throws {
        node.element().kind = .primitive("nil")
        count += 1
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try record(value, into: node.element())
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        count += 1
        return ShapeEncoder(node: node.element()).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        return ShapeEncoder(node: node.element()).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { ShapeEncoder(node: node.element()) }
}

private struct SingleShape: SingleValueEncodingContainer {
    let node: ShapeNode
    var codingPath: [any CodingKey] = []

    mutating func encodeNil() throws { node.kind = .primitive("nil") }
    mutating func encode<T: Encodable>(_ value: T) throws { try record(value, into: node) }
}
