import Ingest
import Support

/// Timestamps, money, durations and currency codes from bytes: refused or parsed, never a
/// crash; what parses prints and parses back to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValueParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    if case .success(let timestamp) = TimestampParser.parseInput(bytes) {
        precondition(timestamp.isInAcceptedRange, "accepted times are in range")
        precondition(TimestampParser.parse(timestamp.description) == timestamp, "a time prints and parses back")
    }
    _ = TimestampParser.parse(bytes)
    _ = TimestampParser.parseDate(bytes)
    if let money = try? Money.parse(bytes) {
        precondition((try? Money.parse(money.formatted(decimals: 9))) == money, "money prints and parses back exactly")
        _ = try? money.adding(money)
        _ = try? money.scaled(by: Int64(size) - 7, over: 3)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    if let span = TimeSpan(parsing: text) {
        precondition(span.milliseconds >= 0, "durations are not negative")
        precondition(TimeSpan(parsing: span.description) == span || span.milliseconds % 1000 != 0, "a duration prints and parses back")
    }
    _ = CurrencyCode(bytes)
    _ = BillingPeriod(iso: text)
    return 0
}
