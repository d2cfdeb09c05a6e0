// Foundation is used here and nowhere else in the library: JSON decoding. FoundationEssentials
// has JSONDecoder without pulling ICU into the binary.
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes JSON bytes into `Decodable` types, and says briefly what was wrong when it fails.
package enum JSON {
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws(JSONError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw JSONError(error)
        } catch {
            throw JSONError(reason: "not valid JSON", field: "")
        }
    }

    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(JSONError) -> T {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(JSONError) in try decode(type, from: raw) } }
        return try result.get()
    }

    /// Encodes with sorted keys, so the same value gives the same bytes.
    package static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(value))) ?? Array("null".utf8)
    }
}

/// A JSON line that could not be decoded: which field, and why, in a sentence.
package struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    package var reason: String
    package var field: String

    package init(reason: String, field: String) {
        self.reason = reason
        self.field = field
    }

    init(_ error: DecodingError) {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self.init(reason: "not valid JSON", field: "")
        case .dataCorrupted(let context):
            self.init(reason: "bad value: \(context.debugDescription)", field: path(context))
        case .typeMismatch(let type, let context):
            self.init(reason: "expected \(type)", field: path(context))
        case .valueNotFound(let type, let context):
            self.init(reason: "expected \(type), found null", field: path(context))
        case .keyNotFound(let key, let context):
            self.init(reason: "missing field", field: (path(context).isEmpty ? "" : path(context) + ".") + key.stringValue)
        @unknown default:
            self.init(reason: "not valid JSON", field: "")
        }
    }

    package var description: String { field.isEmpty ? reason : "\(field): \(reason)" }
}
