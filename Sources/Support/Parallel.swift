import Dispatch
import Synchronization

/// Runs work on several threads and hands back what each piece produced, in a fixed order,
/// so the number of threads never changes a result.
///
/// Every parallel path of the product goes through here.
///
/// This is the one place where threads share memory, and why that is safe: for `map` and
/// `workers`, each piece of work writes only its own slot of a buffer allocated here, never one
/// another thread writes; the buffer is read only after `concurrentPerform` has returned, which
/// joins every worker. That invariant is what `Slots` promises with `@unchecked Sendable`; for
/// `ordered`, every shared field is touched under one of two locks (`OrderedRun` says which).
/// Nothing else in the product needs `@unchecked`.
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

    /// Runs pieces of work of different result types side by side and returns their results as
    /// one tuple, in the order given: `let (a, b) = try Parallel.all(threads: 2, { ... }, { ... })`.
    ///
    /// If any piece throws, the error of the first is rethrown.
    package static func all<each Value: Sendable>(
        threads: Int, _ work: repeat @escaping @Sendable () throws -> each Value
    ) throws -> (repeat each Value) {
        var pieces: [@Sendable () throws -> any Sendable] = []
        for piece in repeat each work { pieces.append { try piece() } }
        let results = try map(pieces.count, threads: threads) { [pieces] index in try pieces[index]() }
        var position = 0
        // Each result is the one its piece returned, so it always has that piece's type.
        func next<Result>(_: Result.Type) -> Result {
            defer { position += 1 }
            guard let result = results[position] as? Result else { preconditionFailure("piece \(position) changed type") }
            return result
        }
        return (repeat next((each Value).self))
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

extension Parallel {
    /// Takes items one at a time from `next`, works each on one of up to `threads` threads with
    /// `transform`, and hands the results to `consume` in the order the items came.
    ///
    /// `next` and `consume` are never called twice at once, so they may keep state of their own. At
    /// most `window` items are out at a time (taken, not yet consumed): memory holds a few results,
    /// never all of them. The first error in item order (from `next`, `transform` or `consume`) stops
    /// the run and is rethrown: no new item is taken, and none after it is consumed.
    package static func ordered<Item: Sendable, Value: Sendable>(
        threads: Int, window: Int, next: () throws -> Item?, transform: @Sendable (Item) throws -> Value,
        consume: (Value) throws -> Void
    ) throws {
        try withoutActuallyEscaping(next) { next in
            try withoutActuallyEscaping(consume) { consume in
                let run = OrderedRun(next: next, consume: consume, window: max(window, threads, 1))
                @Sendable func work(_ worker: Int) { run.work(transform) }
                if threads <= 1 {
                    work(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: threads, execute: work)
                }
                if let failure = run.failure { throw failure.error }
            }
        }
    }
}

/// The shared state of `Parallel.ordered`.
///
/// Why `@unchecked Sendable` is safe: `next`, `taken` and `stopped` are touched only while `reading`
/// is held; `consume`, `results`, `consumed` and `failure` only while `keeping` is held (`stopped` is
/// also set from there, taking `reading` inside `keeping`; the reading side never waits for `keeping`
/// while it holds `reading`, so the two cannot deadlock).
private final class OrderedRun<Item, Value>: @unchecked Sendable {
    private let next: () throws -> Item?
    private let consume: (Value) throws -> Void
    private let permits: DispatchSemaphore
    private let reading = DispatchSemaphore(value: 1)
    private let keeping = DispatchSemaphore(value: 1)
    private var taken = 0
    private var stopped = false
    private var results: [Int: Result<Value, any Error>] = [:]
    private var consumed = 0
    private(set) var failure: (index: Int, error: any Error)?

    init(next: @escaping () throws -> Item?, consume: @escaping (Value) throws -> Void, window: Int) {
        self.next = next
        self.consume = consume
        permits = DispatchSemaphore(value: window)
    }

    func work(_ transform: (Item) throws -> Value) {
        while true {
            // A permit for every item out: a thread waits here while `window` are.
            permits.wait()
            reading.wait()
            let index = taken
            var item: Item?
            var readError: (any Error)?
            if !stopped {
                do { item = try next() } catch { readError = error }
            }
            if item == nil { stopped = true } else { taken += 1 }
            reading.signal()
            if let readError {
                keeping.wait()
                fail(readError, at: index)
                keeping.signal()
            }
            guard let item else {
                permits.signal()
                return
            }
            let result = Result { try transform(item) }
            keeping.wait()
            results[index] = result
            // Whoever stores the next result in order consumes it and every stored one after it.
            while let ready = results.removeValue(forKey: consumed) {
                // Items before a failure are still consumed: their own error comes first.
                if failure.map({ consumed < $0.index }) ?? true {
                    do {
                        try consume(ready.get())
                    } catch {
                        fail(error, at: consumed)
                        reading.wait()
                        stopped = true
                        reading.signal()
                    }
                }
                consumed += 1
                permits.signal()
            }
            keeping.signal()
        }
    }

    /// Keeps the error of the lowest item; called with `keeping` held.
    private func fail(_ error: any Error, at index: Int) {
        if failure.map({ index < $0.index }) ?? true { failure = (index, error) }
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
