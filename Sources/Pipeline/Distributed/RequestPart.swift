import Ingest
import Support

/// One of `parts` hash partitions of the request ids: what one `settle --part K/N` settles, so
/// that no process holds every id of a run (docs/scaleout.md, Request ids across partials).
///
/// An id's partition is its keyed hash modulo `parts`: the key is the snapshot's, so every step
/// of a run puts an id in the same partition, and no input can be crafted to crowd one.
package struct RequestPart: Sendable, Hashable, Codable, CustomStringConvertible {
    package var part: Int
    package var parts: Int

    /// The most partitions (`K/N` with N at most this).
    package static let most = 4096

    /// Every id in one partition: `settle` without `--part`.
    package static let whole = RequestPart(part: 0, parts: 1)

    package init(part: Int, parts: Int) {
        self.part = part
        self.parts = parts
    }

    /// `K/N`, with 0 <= K < N <= 4096; nil for anything else.
    package init?(_ text: String) {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, let part = Int(halves[0]), let parts = Int(halves[1]), parts >= 1, parts <= Self.most,
            part >= 0, part < parts
        else { return nil }
        self.init(part: part, parts: parts)
    }

    package var description: String { "\(part)/\(parts)" }

    /// True when the id of `entry` is in this partition.
    @inline(__always)
    package func contains(_ entry: RequestEntry) -> Bool {
        parts == 1 || Int(entry.key % UInt64(parts)) == part
    }

    /// What a file of this partition is called beside `base`: `base.suffix` for the whole,
    /// `base.K-of-N.suffix` for one of several.
    package func name(_ base: String, _ suffix: String) -> String {
        parts == 1 ? "\(base).\(suffix)" : "\(base).\(part)-of-\(parts).\(suffix)"
    }
}
