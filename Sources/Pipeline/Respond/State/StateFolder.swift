import Support

/// respond's state folder, trusted only when it is this user's own, as ssh trusts its keys: the
/// state decides what Apple is told.
///
/// - A link in the folder's place or among its files, or a file another user owns, stops the
///   run before anything is read or sent, saying what to do (the one case where a damaged
///   state stops a run: rebuilding would write into what another user controls).
/// - A folder or file that group or others could write is made the owner's alone, and the
///   state is rebuilt: what others could have written is not believed.
/// - Anything else of the tool's own, damaged or not, is read and checked as an input.
enum StateFolder {
    /// Makes the folder when it is missing (owner-only) and inspects it; returns why its content
    /// cannot be trusted (and was made owner-only now), or nil.
    static func prepare(_ folder: String) throws -> String? {
        if FileSystem.isSymbolicLink(folder) { throw StateFolderError(path: folder) }
        if FileSystem.kind(folder) == .missing {
            try FileSystem.createDirectory(folder, mode: 0o700)
            return nil
        }
        guard let owner = FileSystem.ownership(folder), owner.ownedByUser else {
            throw StateTrustError(path: folder, problem: "the state folder is owned by another user")
        }
        var loosened = owner.writableByOthers
        for entry in try FileSystem.list(folder) {
            let path = folder + "/" + entry.name
            if FileSystem.isSymbolicLink(path) {
                throw StateTrustError(path: path, problem: "a file of the state is a symbolic link")
            }
            guard let own = FileSystem.ownership(path), own.ownedByUser else {
                throw StateTrustError(path: path, problem: "a file of the state is owned by another user")
            }
            if own.writableByOthers { loosened = true }
            if FileSystem.readableByOthers(path) == true { try FileSystem.makeOwnerOnly(path) }
        }
        try FileSystem.makeOwnerOnly(folder)
        return loosened ? "it was writable by group or others (it is the owner's alone now)" : nil
    }

    /// The name of a state file, without its folder: what a message names it by.
    static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Removes what no manifest names: files a killed or older run left.
    static func removeStray(in folder: String, keeping named: Set<String>) {
        for entry in (try? FileSystem.list(folder)) ?? [] where !named.contains(entry.name) && entry.kind == .regularFile {
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

    var diagnostic: Diagnostic {
        Diagnostic(
            "\(problem): respond trusts only a state that is its user's own, and stopped before sending anything. "
                + "Remove the state folder (the next run builds it again from every file), or give --state a folder "
                + "of this user's", file: path)
    }
}
