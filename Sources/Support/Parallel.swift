import Dispatch
import Synchronization

/// Runs work on several threads and hands back what each piece produced, in a fixed order,
/// so the number of threads never changes a result.
///
/// Every parallel path of the product goes through here.
///
/// This is the one place where threads share memory, and why that is safe: each piece of
/// work writes only its own slot of a buffer allocated here, never one another thread
/// writes; the buffer is read only after `concurrentPerform` has returned, which joins every
/// worker. That invariant is what `Slots` promises with `@unchecked Sendable`; nothing else
/// in the product needs it.
package enum Parallel {
    /// Calls `body` for every index of `0..<count` on up to `threads` threads and returns the
    /// results in index order.
    ///
    /// If any call throws, the error of the lowest index is rethrown.
    package static func map<Value: Sendable>(
        _ count: Int, threads: Int, _ body: @Sendable (Int) throws -> Value
    ) throws -> [Value] {
        try workers(count, threads: threads, start: { _ in () }) { _, index in try body(index) }.results
    }

    /// Runs `threads` workers, each with state of its own made by `start(worker)`.
    ///
    /// Workers take the items `0..<count` in turn, whichever is free taking the next, and `body`
    /// works an item into its worker's state, returning what the item produced. Returns every
    /// worker's final state (in worker order) and every item's result (in item order); which worker
    /// took which item varies between runs, so states should be merged in a way that does not depend
    /// on it.
    package static func workers<State: Sendable, Value: Sendable>(
        _ count: Int, threads: Int, start: @Sendable (Int) -> State, _ body: @Sendable (inout State, Int) throws -> Value
    ) throws -> (states: [State], results: [Value]) {
        let workerCount = max(1, min(threads, count))
        let results = Slots<Result<Value, any Error>>(count)
        let states = Slots<State>(workerCount)
        let next = Atomic<Int>(0)
        @Sendable func work(_ worker: Int) {
            var state = start(worker)
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { break }
                results.store(Result { try body(&state, index) }, at: index)
            }
            states.store(state, at: worker)
        }
        if workerCount == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workerCount, execute: work)
        }
        var values: [Value] = []
        values.reserveCapacity(count)
        for index in 0..<count {
            guard let result = results.take(index) else { continue }
            values.append(try result.get())
        }
        return ((0..<workerCount).compactMap { states.take($0) }, values)
    }
}

/// A fixed number of slots, each written by at most one thread and read only after every
/// writer has finished (see `Parallel`).
private final class Slots<Value>: @unchecked Sendable {
    private let pointer: UnsafeMutablePointer<Value?>
    private let count: Int

    init(_ count: Int) {
        self.count = count
        pointer = .allocate(capacity: max(count, 1))
        pointer.initialize(repeating: nil, count: count)
    }

    deinit {
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }

    func store(_ value: Value, at index: Int) { pointer[index] = value }

    func take(_ index: Int) -> Value? {
        defer { pointer[index] = nil }
        return pointer[index]
    }
}
