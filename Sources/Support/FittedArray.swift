extension Array {
    /// The array in a buffer of its own size.
    ///
    /// An array filled as it grew keeps up to as much room again as it holds, for as long as it
    /// lives: worth a copy for one that is kept through the run.
    package func fitted() -> [Element] {
        guard capacity > count else { return self }
        var copy: [Element] = []
        copy.reserveCapacity(count)
        copy.append(contentsOf: self)
        return copy
    }
}
