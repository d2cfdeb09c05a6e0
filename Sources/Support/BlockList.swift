/// A list that grows in blocks of a fixed size: appending never copies what it holds, so a list
/// of millions of small values (a partial's request-id claims) takes their bytes and no more,
/// where an array that doubles holds up to three times as much while it grows.
///
/// It is coded exactly as an array of its elements: a file written from one reads as the other.
package struct BlockList<Element: Codable & Sendable & Hashable>: Sendable, Hashable, Sequence, ExpressibleByArrayLiteral {
    /// Elements a block holds when full.
    static var blockSize: Int { 1 << 16 }

    private var blocks: [[Element]] = []
    /// How many elements the blocks up to each one hold: blocks taken by `+=` need not be full.
    private var ends: [Int] = []
    package private(set) var count = 0

    package init() {}

    package init(_ elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    package init(arrayLiteral elements: Element...) { self.init(elements) }

    package var isEmpty: Bool { count == 0 }

    package mutating func append(_ element: Element) {
        if blocks.isEmpty || blocks[blocks.count - 1].count == Self.blockSize {
            var block: [Element] = []
            block.reserveCapacity(Self.blockSize)
            blocks.append(block)
            ends.append(count)
        }
        blocks[blocks.count - 1].append(element)
        count += 1
        ends[ends.count - 1] = count
    }

    /// Appends `other`'s elements after these, taking its blocks as they are (a block not full is
    /// kept: the next append starts a block after it, or goes on in the last).
    package static func += (list: inout BlockList, other: BlockList) {
        list.blocks += other.blocks
        list.ends += other.ends.lazy.map { list.count + $0 }
        list.count += other.count
    }

    /// The element at `index`, counted from the first: its block found by a binary search.
    package subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "index \(index) out of a list of \(count)")
        let low = ends.firstPlace { $0 <= index }
        return blocks[low][index - (low == 0 ? 0 : ends[low - 1])]
    }

    package func makeIterator() -> FlattenSequence<[[Element]]>.Iterator { blocks.joined().makeIterator() }

    package static func == (lhs: BlockList, rhs: BlockList) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension BlockList: Codable {
    /// Coders other than the compact one see an array.
    package init(from decoder: any Decoder) throws {
        self.init(try [Element](from: decoder))
    }

    package func encode(to encoder: any Encoder) throws {
        try Array(self).encode(to: encoder)
    }
}

extension BlockList: CompactCollection {
    func encodeCompact(_ encoder: CompactEncoder) throws {
        encoder.writeUnsigned(UInt64(count))
        for element in self {
            try encoder.encodeValue(element)
            try encoder.handOnIfFull()
        }
    }

    static func decodeCompact(_ decoder: CompactDecoder) throws -> BlockList {
        let count = try decoder.readCount()
        var list = BlockList()
        for _ in 0..<count { list.append(try decoder.decodeValue(Element.self)) }
        return list
    }
}
