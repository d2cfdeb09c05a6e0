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

    /// `value` coded, handed to `sink` in pieces of at least `pieceBytes` (but the last).
    ///
    /// The pieces go as they are coded, so a list of millions of values is never held whole in
    /// its coded form. Joined, they are `encode(value)`.
    package static func encode<T: Encodable>(_ value: T, pieces pieceBytes: Int, to sink: @escaping ([UInt8]) throws -> Void)
        throws
    {
        let encoder = CompactEncoder()
        encoder.sink = sink
        encoder.pieceBytes = pieceBytes
        try encoder.encodeValue(value)
        if !encoder.bytes.isEmpty { try sink(encoder.bytes) }
    }

    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let decoder = CompactDecoder(bytes)
        let value = try decoder.decodeValue(type)
        guard decoder.isAtEnd else { throw CompactCodingError.trailingBytes }
        return value
    }

    /// The value coded in the `size` bytes `source` hands out, a chunk at a time (it fills the
    /// buffer it is given and says how many bytes it put there, 0 at the end): the coded form is
    /// never held whole, only the part being read.
    package static func decode<T: Decodable>(
        _ type: T.Type, size: Int, from source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws -> T {
        let decoder = CompactDecoder(size: size, source: source)
        let value = try decoder.decodeValue(type)
        guard decoder.isAtEnd else { throw CompactCodingError.trailingBytes }
        return value
    }
}
