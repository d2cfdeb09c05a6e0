import Support

/// The lines of one piece of a notification or history file: an array of their own (a gzip
/// file's, inflated), or a range of the file mapped into memory.
///
/// A mapped piece lets go of its pages when the last copy of it goes, once it is decoded: the
/// process holds only the pieces in flight, not the file.
struct PartBytes: Sendable {
    private enum Storage: Sendable {
        case owned([UInt8])
        case mapped(MappedRange)
    }

    private let storage: Storage

    init(_ bytes: [UInt8]) { storage = .owned(bytes) }

    init(_ file: MappedFile, _ range: Range<Int>) { storage = .mapped(MappedRange(file: file, range: range)) }

    var count: Int {
        switch storage {
        case .owned(let bytes): bytes.count
        case .mapped(let mapped): mapped.range.count
        }
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .owned(let bytes): try bytes.withUnsafeBytes(body)
        case .mapped(let mapped): try body(UnsafeRawBufferPointer(rebasing: mapped.file.bytes[mapped.range]))
        }
    }
}

/// A range of a mapped file, released from the process when it is no longer read.
private final class MappedRange: Sendable {
    let file: MappedFile
    let range: Range<Int>

    init(file: MappedFile, range: Range<Int>) {
        self.file = file
        self.range = range
    }

    deinit { file.release(range) }
}
