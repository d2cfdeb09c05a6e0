import Support

/// Builds a report in a hidden folder beside its destination and swaps it into place whole,
/// so `OUT/LABEL` always holds one run's files, never a mix of two, and a reader sees the old
/// folder or the new one, never neither.
///
/// A run that fails leaves `OUT/LABEL` exactly as it was and puts its rejects beside it in
/// `OUT/LABEL.rejects.csv`. Folders and files left by runs that were killed (`.LABEL.partial-PID`,
/// `*.partial-PID` of a process that no longer runs) are removed by the next run.
package struct OutputFolder {
    package let destination: String
    package let staging: String
    /// Where a failed run's rejects go.
    package let rejectsFile: String

    package init(out: String, label: String) throws(OutputFolderError) {
        do {
            try FileSystem.createDirectory(out)
        } catch {
            throw .system(error)
        }
        destination = out + "/" + label
        staging = out + "/." + label + ".partial-\(FileSystem.processID)"
        rejectsFile = out + "/" + label + ".rejects.csv"
        switch FileSystem.kind(destination) {
        case .missing, .directory: break
        case .regularFile, .special: throw .destinationIsNotAFolder(destination)
        }
        OutputFolder.removeDebris(in: out)
        try? FileSystem.removeTree(staging)
        do {
            // A new folder of its own: a name planted there (a link to elsewhere) is refused, never written through.
            try FileSystem.createNewDirectory(staging)
        } catch {
            throw .system(error)
        }
    }

    /// Puts the staged folder in place of the destination, and drops a failed run's rejects.
    package func commit() throws(SystemError) {
        if FileSystem.kind(destination) == .directory {
            if FileSystem.exchange(staging, destination) {
                try FileSystem.removeTree(staging)
            } else {
                // No atomic swap here: the old folder moves aside for the moment of the rename.
                let previous = destination + ".previous-partial-\(FileSystem.processID)"
                try FileSystem.rename(destination, to: previous)
                try FileSystem.rename(staging, to: destination)
                try FileSystem.removeTree(previous)
            }
        } else {
            try FileSystem.rename(staging, to: destination)
        }
        FileSystem.remove(rejectsFile)
    }

    /// A failed run: its staged rejects (if any) become `OUT/LABEL.rejects.csv`; the
    /// destination is not touched.
    package func keepRejectsOnly() throws(SystemError) {
        let staged = staging + "/rejects.csv"
        if FileSystem.kind(staged) == .regularFile { try FileSystem.rename(staged, to: rejectsFile) }
        abandon()
    }

    package func abandon() {
        try? FileSystem.removeTree(staging)
    }

    /// Removes what killed runs left in `out`: names ending in `.partial-PID` whose process is gone.
    private static func removeDebris(in out: String) {
        guard let entries = try? FileSystem.list(out) else { return }
        for entry in entries {
            guard let pidText = entry.name.split(separator: "-").last, entry.name.hasSuffix(".partial-" + pidText),
                let pid = Int32(pidText), pid != FileSystem.processID, !FileSystem.processIsAlive(pid)
            else { continue }
            try? FileSystem.removeTree(out + "/" + entry.name)
        }
    }
}

/// Why the output folder cannot be used.
package enum OutputFolderError: DiagnosticError, Sendable, Hashable {
    case destinationIsNotAFolder(String)
    case system(SystemError)

    package var diagnostic: Diagnostic {
        switch self {
        case .destinationIsNotAFolder(let path):
            Diagnostic(
                "a file with the report's name is in the way; the report is a folder. Move the file away and run again.",
                file: path)
        case .system(let error): error.diagnostic
        }
    }
}
