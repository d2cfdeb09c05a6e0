import Ingest
import Support

/// A finished report folder, as `publish` needs it: which report it is (from its run.json)
/// and that every file to load is there.
struct PublishedReport {
    package let folder: String
    package let label: String
    package let version: String
    /// The window's first day and the day after its last, as dates.
    package let periodStart: String
    package let periodEnd: String
    package let asOf: String
    /// run.json's `inputs` (path, bytes, SHA-256 of every input), as JSON.
    package let inputs: String
    /// run.json as written.
    let runJSON: String

    package init(folder: String) throws(PublishError) {
        self.folder = folder
        let runPath = folder + "/run.json"
        guard FileSystem.isDirectory(folder) else {
            throw PublishError("\(folder) is not a folder: give --report the folder a report wrote, like out/2026-10")
        }
        let bytes: [UInt8]
        do { bytes = try FileDescriptor.readAll(runPath) } catch {
            // Given the --out folder rather than one report in it: name the reports it holds.
            let reports = ((try? FileSystem.list(folder)) ?? []).map(\.name).sorted()
                .filter { FileSystem.exists(folder + "/" + $0 + "/run.json") }
            if !reports.isEmpty {
                throw PublishError(
                    "\(folder) holds reports, not one report: give --report one of "
                        + reports.prefix(6).map { folder + "/" + $0 }.joined(separator: ", ")
                        + (reports.count > 6 ? ", ..." : ""))
            }
            throw PublishError(
                "\(runPath) cannot be read (\(error)): --report takes the folder a finished report wrote, like out/2026-10"
            )
        }
        var label = "", version = "", start = "", end = "", asOf = "", inputs = ""
        do {
            try bytes.withUnsafeBytes { raw in
                var cursor = JSONCursor(raw)
                try cursor.members { cursor, key in
                    if key == "version" {
                        version = try cursor.string()
                    } else if key == "options" {
                        try cursor.members { cursor, key in
                            if key == "label" {
                                label = try cursor.string()
                            } else if key == "period_start" {
                                start = try cursor.string()
                            } else if key == "period_end" {
                                end = try cursor.string()
                            } else if key == "as_of" {
                                asOf = try cursor.string()
                            } else {
                                try cursor.skip()
                            }
                        }
                    } else if key == "inputs" {
                        inputs = String(decoding: try cursor.valueBytes(), as: UTF8.self)
                    } else {
                        try cursor.skip()
                    }
                }
            }
        } catch {
            throw PublishError("not a report's run.json: \(error)", file: runPath)
        }
        guard !label.isEmpty, start.utf8.count >= 10, end.utf8.count >= 10, !version.isEmpty else {
            throw PublishError(
                "options.label, options.period_start, options.period_end or version is missing: "
                    + "publish reads the run.json of a report (refund-cost report), not of another command", file: runPath)
        }
        self.label = label
        self.version = version
        periodStart = String(start.prefix(10))
        periodEnd = String(end.prefix(10))
        self.asOf = asOf
        self.inputs = inputs.isEmpty ? "[]" : inputs
        runJSON = String(decoding: bytes, as: UTF8.self)
        for table in OutputTables.all where !FileSystem.exists(folder + "/" + table.file) && !table.predates(version) {
            throw PublishError(
                "\(folder) has no \(table.file): publish loads a whole report folder; run refund-cost report again to write it"
            )
        }
    }
}

/// Why nothing was published; the database is as it was.
package struct PublishError: DiagnosticError {
    package let diagnostic: Diagnostic
    package init(_ message: String, file: String? = nil, line: Int = 0) {
        diagnostic = Diagnostic(message, file: file, line: line)
    }
}
