import Support

/// Builds a report in a hidden folder beside its destination and swaps it into place whole,
/// so `OUT/LABEL` always holds one run's files, never a mix of two.
package struct OutputFolder {
    package let destination: String
    package let staging: String

    package init(out: String, label: String) throws(SystemError) {
        try FileSystem.createDirectory(out)
        destination = out + "/" + label
        staging = out + "/." + label + ".partial-\(FileSystem.processID)"
        try? FileSystem.removeTree(staging)
        try FileSystem.createDirectory(staging)
    }

    /// Replaces the destination with the staged folder.
    package func commit() throws(SystemError) {
        let previous = destination + ".previous-\(FileSystem.processID)"
        let hadPrevious = FileSystem.exists(destination)
        if hadPrevious { try FileSystem.rename(destination, to: previous) }
        try FileSystem.rename(staging, to: destination)
        if hadPrevious { try FileSystem.removeTree(previous) }
    }

    /// Drops everything staged but the named files, then commits (a failed run keeps its rejects).
    package func commitOnly(_ names: Set<String>) throws(SystemError) {
        for entry in try FileSystem.list(staging) where !names.contains(entry.name) {
            try FileSystem.removeTree(staging + "/" + entry.name)
        }
        try commit()
    }

    package func abandon() {
        try? FileSystem.removeTree(staging)
    }
}
