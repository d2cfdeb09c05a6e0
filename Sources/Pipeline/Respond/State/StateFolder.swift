import Support

/// respond's state folder, trusted only when it is this user's own, as ssh trusts its keys: the
/// state decides what Apple is told.
///
/// - A folder that is not respond's (it holds other files and no state: `--state` given a
///   folder of one's own), a link in the folder's place or among its files (symbolic, or a
///   second name of a file), or a file another user owns, stops the run before anything is read
///   or sent, saying what to do (the one case where a state stops a run: rebuilding would write
///   into, or remove, what is not the tool's).
/// - A folder or file that group or others could write is made the owner's alone, and the
///   state is rebuilt: what others could have written is not believed.
/// - A folder, pipe or device at a name the state gives its files is moved aside, and the
///   state rebuilt.
/// - Anything else of the tool's own, damaged or not, is read and checked as an input.
enum StateFolder {
    /// Makes the folder when it is missing (owner-only) and inspects it.
    ///
    /// Returns why its content cannot be trusted (and was made owner-only now), or nil.
    /// `journal`'s files may lie in it (a journal kept in its own state's folder).
    static func prepare(_ folder: String, journal: String) throws -> String? {
        if FileSystem.isSymbolicLink(folder) { throw StateFolderError(path: folder) }
        if FileSystem.kind(folder) == .missing {
            try FileSystem.createDirectory(folder, mode: 0o700)
            try claim(folder)
            return nil
        }
        guard let owner = FileSystem.ownership(folder), owner.ownedByUser else {
            throw StateTrustError(path: folder, problem: "the state folder is owned by another user")
        }
        let entries = try FileSystem.list(folder)
        if !entries.contains(where: { $0.name == marker }) {
            // An empty folder, or one a version before the mark wrote, becomes the state's;
            // any other is someone else's, whose files the state must never remove.
            let name = journal.split(separator: "/").last.map(String.init) ?? journal
            let journals: Set<String> =
                FileSystem.resolvedPath(FileSystem.folder(of: journal)) == FileSystem.resolvedPath(folder)
                ? [name, name + ".lock"] : []
            let others = entries.filter { !isStateFile($0.name) && !journals.contains($0.name) }.map(\.name).sorted()
            guard others.isEmpty else {
                throw StateTrustError(
                    path: folder,
                    problem:
                        "the folder holds files that are not respond's state (\(others.prefix(3).joined(separator: ", ")))",
                    advice: "give --state a folder of its own (new, or empty)")
            }
            try claim(folder)
        }
        var loosened = owner.writableByOthers
        var movedAside: [String] = []
        for entry in try FileSystem.list(folder) {
            let path = folder + "/" + entry.name
            if FileSystem.isSymbolicLink(path) {
                throw StateTrustError(path: path, problem: "a file of the state is a symbolic link")
            }
            // A folder, pipe or device where the state keeps a file would stop every run (a
            // lock that cannot be truncated, a manifest that cannot be renamed over): it is
            // moved aside, kept as it is, and the state built anew.
            if entry.kind != .regularFile, isStateFile(entry.name) {
                guard let own = FileSystem.ownership(path), own.ownedByUser else {
                    throw StateTrustError(path: path, problem: "a file of the state is owned by another user")
                }
                let aside = asideName(for: entry.name, in: folder)
                try FileSystem.rename(path, to: folder + "/" + aside)
                movedAside.append("\(entry.name) was not a file (moved aside as \(aside))")
                continue
            }
            if entry.kind == .regularFile, (FileSystem.linkCount(path) ?? 1) > 1 {
                throw StateTrustError(path: path, problem: "a file of the state has another name (a hard link)")
            }
            guard let own = FileSystem.ownership(path), own.ownedByUser else {
                throw StateTrustError(path: path, problem: "a file of the state is owned by another user")
            }
            if own.writableByOthers { loosened = true }
            if FileSystem.readableByOthers(path) == true { try FileSystem.makeOwnerOnly(path) }
        }
        try FileSystem.makeOwnerOnly(folder)
        if let first = movedAside.first { return first }
        return loosened ? "it was writable by group or others (it is the owner's alone now)" : nil
    }

    /// `NAME.not-a-file.N`, a name no file of the state has and nothing in the folder has yet.
    private static func asideName(for name: String, in folder: String) -> String {
        let taken = Set(((try? FileSystem.list(folder)) ?? []).map(\.name))
        var number = 1
        while taken.contains("\(name).not-a-file.\(number)") { number += 1 }
        return "\(name).not-a-file.\(number)"
    }

    /// The name of a state file, without its folder: what a message names it by.
    static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The file that marks a folder as respond's state: what it may remove files of.
    static let marker = "refund-cost-state"

    private static func claim(_ folder: String) throws {
        let file = try AtomicFileWriter(path: folder + "/" + marker, ownerOnly: true)
        try file.append("refund-cost respond's state: the files here are the tool's own; remove the folder to start anew\n")
        try file.commit()
    }

    /// True for a name the state gives its files (`usage.12`, `spill.PID.N`, one being written):
    /// the only files it ever removes.
    static func isStateFile(_ name: String) -> Bool {
        var parts = name.split(separator: ".", omittingEmptySubsequences: false)
        // A file being written: its name, `.partial-PID`.
        if let last = parts.last, last.hasPrefix("partial-"), last.dropFirst("partial-".count).allSatisfy(\.isNumber),
            parts.count > 1
        {
            parts.removeLast()
        }
        let number = { (part: Substring) in !part.isEmpty && part.allSatisfy(\.isNumber) }
        if parts.count == 1 { return ["manifest", "lock", Substring(marker)].contains(parts[0]) }
        if parts.first == "spill" { return parts.count == 3 && number(parts[1]) && number(parts[2]) }
        let kinds: Set<Substring> = ["items", "index", "usage", "claims", "repeats", "sums", "links", "link-index"]
        return parts.count == 2 && kinds.contains(parts[0]) && number(parts[1])
    }

    /// Removes what no manifest names: the state's files a killed or older run left, and only those.
    static func removeStray(in folder: String, keeping named: Set<String>) {
        for entry in (try? FileSystem.list(folder)) ?? []
        where !named.contains(entry.name) && entry.kind == .regularFile && isStateFile(entry.name) {
            FileSystem.remove(folder + "/" + entry.name)
        }
    }

    /// The highest number among the files in `folder` named `kind.N` (0 when none): a new state
    /// numbers its files above it, so it never overwrites a file an older manifest may name.
    static func highestNumber(in folder: String) -> Int {
        ((try? FileSystem.list(folder)) ?? []).compactMap { entry -> Int? in
            guard let dot = entry.name.lastIndex(of: ".") else { return nil }
            return Int(entry.name[entry.name.index(after: dot)...])
        }.max() ?? 0
    }
}

/// A state folder that is a link: the tool writes only where it made the files itself.
struct StateFolderError: DiagnosticError {
    var path: String

    var diagnostic: Diagnostic {
        Diagnostic(
            "the state folder is a symbolic link, and respond writes its state only in a folder of its own "
                + "(remove the link, or give --state the folder itself)", file: path)
    }
}

/// A state this user does not own alone: the run stops, sending nothing.
struct StateTrustError: DiagnosticError {
    var path: String
    var problem: String
    var advice =
        "remove the state folder (the next run builds it again from every file), or give --state a folder of this user's"

    var diagnostic: Diagnostic {
        Diagnostic(
            "\(problem): respond trusts only a state that is its user's own, and stopped before sending anything; "
                + advice, file: path)
    }
}
