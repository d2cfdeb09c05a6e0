internal import CSystem
import Glibc

/// Wall-clock and process measurements for progress lines and `run.json`.
package enum Clock {
    /// Monotonic seconds, for measuring elapsed time.
    package static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The wall clock, to the millisecond: what "now" means for tokens and deadlines.
    package static func now() -> Timestamp {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp(milliseconds: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
    }

    /// Waits `seconds` (nothing for zero or less).
    package static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var wanted = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var left = timespec()
        while nanosleep(&wanted, &left) != 0 && errno == EINTR { wanted = left }
    }

    /// Peak resident set size of this process, in bytes.
    package static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}

/// Counts the line feeds in a byte range with libc's vectorised `memchr`.
@inlinable
package func countLineFeeds(_ start: UnsafeRawPointer, _ count: Int) -> Int {
    var lines = 0
    var cursor = start
    var remaining = count
    while remaining > 0, let hit = Glibc.memchr(cursor, 0x0A, remaining) {
        lines += 1
        let advance = UnsafeRawPointer(hit) - cursor + 1
        cursor = UnsafeRawPointer(hit) + 1
        remaining -= advance
    }
    return lines
}

/// Writes a line to standard error without buffering, for progress and diagnostics.
package func writeStandardError(_ text: String) {
    writeWhole(text, to: 2)
}

/// Writes a line to standard output at once, in one write: a run killed after it (cron's
/// `kill -9`, an OOM) has not lost it in a buffer, as `print` into a pipe or a file would.
package func writeStandardOutput(_ text: String) {
    writeWhole(text, to: 1)
}

private func writeWhole(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
        var done = 0
        while done < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done)
            // A closed or full output is not worth stopping the run for: its lines are lost, not its work.
            if written <= 0 && errno != EINTR { return }
            done += max(written, 0)
        }
    }
}

/// Byte-wise equality of two ranges with libc's `memcmp`.
@inlinable
package func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    Glibc.memcmp(a, b, count) == 0
}

/// True when `needle` occurs in `haystack` (libc's `memmem`).
package func contains(_ haystack: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
    guard let base = haystack.baseAddress else { return false }
    return refund_cost_find_bytes(base, haystack.count, needle.utf8Start, needle.utf8CodeUnitCount) != nil
}

/// Counts the occurrences of one byte in a range with `memchr`.
package func countByte(_ start: UnsafeRawPointer, _ count: Int, _ byte: UInt8) -> Int {
    var found = 0
    var cursor = start
    var remaining = count
    while remaining > 0, let hit = Glibc.memchr(cursor, Int32(byte), remaining) {
        found += 1
        let advance = UnsafeRawPointer(hit) - cursor + 1
        cursor = UnsafeRawPointer(hit) + 1
        remaining -= advance
    }
    return found
}

/// The address of the first `byte` in a range (libc's `memchr`), or nil.
@inlinable
package func findFirst(_ byte: UInt8, in start: UnsafeRawPointer, _ count: Int) -> UnsafeRawPointer? {
    Glibc.memchr(start, Int32(byte), count).map { UnsafeRawPointer($0) }
}
