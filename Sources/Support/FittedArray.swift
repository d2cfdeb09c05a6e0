extension Array {
    /// The array in a buffer of its own size, when it has more than an eighth of its count to
    /// spare in a block of the heap.
    ///
    /// An array filled as it grew keeps up to as much room again as it holds, for as long as it
    /// lives: worth a copy for one kept through the run. With little to spare, the copy (held
    /// beside the array for a moment) would cost more than it saves. A block of
    /// `FreedMemory.ownMappingBytes` or more has a mapping of its own, whose pages past what the
    /// array ever held were never written and take no memory: its copy would only add to the
    /// peak, at the end of a stage, where the peak is.
    package func fitted() -> [Element] {
        guard capacity - count > count / 8, capacity * MemoryLayout<Element>.stride < FreedMemory.ownMappingBytes
        else { return self }
        var copy: [Element] = []
        copy.reserveCapacity(count)
        copy.append(contentsOf: self)
        return copy
    }
}
