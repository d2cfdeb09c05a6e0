import Synchronization
import Testing

@testable import Support

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
