import Ingest
import Support

/// What the last `respond` run saw, kept beside the journal (`JOURNAL.inputs`).
///
/// The App Store files and evidence it read (path, size, time) and whether it left any open
/// request unanswered. When nothing changed and nothing was left, a run has nothing to do and stops
/// at once, instead of reading every input again every few minutes.
struct RespondCheckpoint {
    let path: String

    init(journal: String) { path = journal + ".inputs" }

    /// The inputs that decide which requests exist and what they are answered.
    static func fingerprint(_ options: RunOptions) throws -> String {
        let layout = try InputLayout(root: options.data)
        let files =
            layout.notificationFiles + layout.transactionFiles
            + [layout.accounts, layout.products, layout.consent, layout.deliveries].compactMap { $0 } + layout.costFiles
        var text = "refund-cost \(ToolVersion.current)\n"
        for file in files {
            let status = FileSystem.status(file)
            text += "\(file)\t\(status?.bytes ?? -1)\t\(status?.modified ?? -1)\n"
        }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { SHA256.digest(UnsafeRawBufferPointer($0)) }
    }

    /// True when the last run saw these inputs and left no open request unanswered.
    func upToDate(_ fingerprint: String) -> Bool {
        guard let bytes = try? FileDescriptor.readAll(path) else { return false }
        return String(decoding: bytes, as: UTF8.self) == Self.content(fingerprint, pending: 0)
    }

    func save(_ fingerprint: String, pending: Int) throws {
        let file = try AtomicFileWriter(path: path)
        try file.append(Self.content(fingerprint, pending: pending))
        try file.commit()
    }

    private static func content(_ fingerprint: String, pending: Int) -> String {
        "inputs \(fingerprint)\npending \(pending)\n"
    }
}
