import Ingest
import Support

/// One line of the journal of `respond`: an event or a JSONError that says why, never a crash;
/// an event read back from its own line is the same event; any bytes read as a torn line give
/// what was whole in them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    // Any bytes read as a torn last line give what was whole in them, never a crash.
    _ = JournalLine.torn(bytes)
    do {
        let event = try JournalLine.event(bytes)
        var line = Array(event.line.utf8.dropLast())
        let again = try line.withUnsafeMutableBytes { try JournalLine.event(UnsafeRawBufferPointer($0)) }
        precondition(again.notificationUUID == event.notificationUUID && again.state == event.state, "a line reads back")
    } catch let error as JSONError {
        precondition(!error.reason.isEmpty, "a refused line says why")
    } catch {
        preconditionFailure("only JSONError: \(error)")
    }
    return 0
}
