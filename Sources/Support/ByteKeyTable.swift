/// Interns byte strings (account ids, categories) into dense integer ids without making a
/// `String` per lookup: keys live back to back in one buffer, slots are open-addressed.
package struct ByteKeyTable: Sendable {
    @usableFromInline var bytes: [UInt8] = []
    @usableFromInline var starts: [Int] = []
    @usableFromInline var lengths: [Int] = []
    @usableFromInline var hashes: [UInt64] = []
    /// -1 for an empty slot, else the id stored there.
    @usableFromInline var slots: [Int32]
    @usableFromInline var mask: Int

    package var count: Int { starts.count }

    package init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        mask = size - 1
    }

    /// The id of `key`, if it was inserted.
    ///
    /// Inlinable: attribution looks up every cost row's account.
    @inlinable
    package func find(_ key: UnsafeRawBufferPointer) -> Int32? {
        let hash = ByteKeyTable.hash(key)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let id = slots[slot]
            if id < 0 { return nil }
            if hashes[Int(id)] == hash && equals(Int(id), key) { return id }
            slot = (slot + 1) & mask
        }
    }

    /// The id of `key`, inserting it when new.
    @discardableResult
    package mutating func insert(_ key: UnsafeRawBufferPointer) -> Int32 {
        if let id = find(key) { return id }
        if (count + 1) * 2 > slots.count { grow() }
        let id = Int32(count)
        let hash = ByteKeyTable.hash(key)
        starts.append(bytes.count)
        lengths.append(key.count)
        hashes.append(hash)
        bytes.append(contentsOf: key)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = id
        return id
    }

    @discardableResult
    package mutating func insert(_ key: String) -> Int32 {
        var key = key
        return key.withUTF8 { insert(UnsafeRawBufferPointer($0)) }
    }

    package func find(_ key: String) -> Int32? {
        var key = key
        return key.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }

    package func key(_ id: Int32) -> String {
        let start = starts[Int(id)]
        return String(decoding: bytes[start..<(start + lengths[Int(id)])], as: UTF8.self)
    }

    @inlinable
    func equals(_ id: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        guard lengths[id] == key.count else { return false }
        let start = starts[id]
        return bytes.withUnsafeBytes { stored in
            guard let storedBase = stored.baseAddress, let keyBase = key.baseAddress else { return key.isEmpty }
            return memcmpBytes(storedBase + start, keyBase, key.count)
        }
    }

    private mutating func grow() {
        let size = slots.count * 2
        slots = Array(repeating: -1, count: size)
        mask = size - 1
        for id in 0..<count {
            var slot = Int(truncatingIfNeeded: hashes[id]) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
    }

    @inline(__always)
    @inlinable
    package static func hash(_ key: UnsafeRawBufferPointer) -> UInt64 { FastHash.hash(key) }
}

extension ByteKeyTable: Codable {
    /// Its keys in id order: inserted again in that order, they get the same ids.
    package init(from decoder: any Decoder) throws {
        self.init()
        for key in try decoder.singleValueContainer().decode([String].self) { _ = insert(key) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode((0..<count).map { self.key(Int32($0)) })
    }
}
