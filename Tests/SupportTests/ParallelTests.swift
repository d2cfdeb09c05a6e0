import Synchronization
import Testing

@testable import Support
@testable import TestSupport

@Suite("Running work on all cores")
struct ParallelTests {
    @Test(arguments: [1, 2, 7, 64])
    func resultsComeBackInItemOrderWhateverTheThreads(threads: Int) throws {
        let squares = try Parallel.map(1000, threads: threads) { $0 * $0 }
        #expect(squares == (0..<1000).map { $0 * $0 })
    }

    @Test func everyItemIsWorkedExactlyOnceIntoSomeWorkersState() throws {
        let (states, results) = try Parallel.workers(500, threads: 4, start: { _ in [Int]() }) { seen, index in
            seen.append(index)
            return index
        }
        #expect(results == Array(0..<500))
        #expect(states.count == 4)
        #expect(states.flatMap { $0 }.sorted() == Array(0..<500))
    }

    struct Failure: Error, Equatable {
        var index: Int
    }

    @Test func theLowestFailingItemsErrorIsRethrown() {
        #expect(throws: Failure(index: 3)) {
            _ = try Parallel.map(100, threads: 4) { index in
                if index == 3 || index == 90 { throw Failure(index: index) }
                return index
            }
        }
    }

    @Test(arguments: [1, 3])
    func piecesOfDifferentTypesComeBackInTheirPlaces(threads: Int) throws {
        let (number, text, list) = try Parallel.all(
            threads: threads, { (1...100).reduce(0, +) }, { String(repeating: "ab", count: 3) }, { [0.5, 1.5] })
        #expect(number == 5050)
        #expect(text == "ababab")
        #expect(list == [0.5, 1.5])
        #expect(throws: Failure(index: 1)) {
            _ = try Parallel.all(
                threads: threads, { 0 }, { () throws -> String in throw Failure(index: 1) },
                { () throws -> Int in throw Failure(index: 2) })
        }
    }

    @Test func noItemsMeansNoWork() throws {
        let calls = Atomic<Int>(0)
        let results = try Parallel.map(0, threads: 8) { index in
            calls.add(1, ordering: .relaxed)
            return index
        }
        #expect(results.isEmpty)
        #expect(calls.load(ordering: .relaxed) == 0)
    }
}

@Suite("Working items in order, a few at a time")
struct OrderedParallelTests {
    /// Counts items handed out and consumed; touched only by `next` and `consume`, which the
    /// helper never runs at once.
    final class Tally {
        var handedOut = 0
        var consumed: [Int] = []
        var mostOut = 0
    }

    @Test(arguments: [1, 2, 7])
    func resultsAreConsumedInItemOrderWithAtMostTheWindowOut(threads: Int) throws {
        let tally = Tally()
        try Parallel.ordered(
            threads: threads, window: 8,
            next: { () -> Int? in
                guard tally.handedOut < 500 else { return nil }
                tally.handedOut += 1
                tally.mostOut = max(tally.mostOut, tally.handedOut - tally.consumed.count)
                return tally.handedOut - 1
            },
            transform: { item in
                // Uneven work, so later items often finish first.
                var sum = 0
                for step in 0..<((item * 7919) % 3000) { sum &+= step }
                return (item, sum)
            },
            consume: { tally.consumed.append($0.0) })
        #expect(tally.consumed == Array(0..<500))
        #expect(tally.mostOut <= 8)
    }

    struct Failure: Error, Equatable {
        var index: Int
    }

    @Test func theFirstErrorInItemOrderIsRethrownAndNothingAfterItIsConsumed() {
        for threads in [1, 4] {
            let tally = Tally()
            #expect(throws: Failure(index: 30)) {
                try Parallel.ordered(
                    threads: threads, window: 4,
                    next: { () -> Int? in
                        tally.handedOut += 1
                        if tally.handedOut == 61 { throw Failure(index: 60) }
                        return tally.handedOut - 1
                    },
                    transform: { item in
                        if item == 30 { throw Failure(index: 30) }
                        return item
                    },
                    consume: { item in
                        if item == 45 { throw Failure(index: 45) }
                        tally.consumed.append(item)
                    })
            }
            #expect(tally.consumed == Array(0..<30))
        }
    }

    @Test func anErrorInConsumingStopsTheRun() {
        let tally = Tally()
        #expect(throws: Failure(index: 12)) {
            try Parallel.ordered(
                threads: 3, window: 6,
                next: { () -> Int? in
                    tally.handedOut += 1
                    return tally.handedOut - 1
                },
                transform: { $0 },
                consume: { item in
                    if item == 12 { throw Failure(index: 12) }
                    tally.consumed.append(item)
                })
        }
        #expect(tally.consumed == Array(0..<12))
        // It stopped handing out items soon after: never more than the window past the failure.
        #expect(tally.handedOut <= 12 + 6 + 3)
    }
}
