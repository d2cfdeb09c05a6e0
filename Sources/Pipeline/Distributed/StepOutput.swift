import Ingest
import Support

/// Where a step may write the file it is asked to: not over an input of the run, nor in a
/// folder of inputs (`notifications/`, `transactions/`, `costs/`, `play/`, at any depth), nor
/// under a name the layout reads in `--data` (`accounts.csv`, ...), where the next step or the
/// next run would read it as data.
enum StepOutput {
    /// Refuses `path` (a step's output, as the user named it) when it is an input of `layout`,
    /// lies in one of its folders of inputs, or takes a name of an input it reads when present.
    static func check(_ path: String, layout: InputLayout) throws {
        // Every file of the step fits a file name, written under its temporary name, before any
        // is written: a step never leaves one file without those beside it.
        let name = path.split(separator: "/").last.map(String.init) ?? path
        // The next steps refuse such a name in their folders: refused before the work is spent.
        guard Reject.isPrintable(name) else {
            throw PackedFileError(
                path: path, problem: "its name holds a line break or another control character: give the step another name")
        }
        guard name.utf8.count <= longestName else {
            throw PackedFileError(
                path: path,
                problem: "its name is \(name.utf8.count) bytes; a step file's name takes at most \(longestName), leaving room "
                    + "for the files written beside it (`.rows-K-of-G`, `.group-K-of-G`, `.K-of-N.seeds`) and their temporary "
                    + "names: give the step a shorter name")
        }
        let target = FileSystem.resolvedPath(path)
        let root = FileSystem.resolvedPath(layout.root)
        if let input = (layout.allFiles + layout.play.all).first(where: { FileSystem.resolvedPath($0) == target }) {
            throw PackedFileError(
                path: path, problem: "it is an input of --data \(layout.root) (\(input)): write step files outside its folders")
        }
        let inputNames = InputLayout.filesReadWhenPresent.flatMap { [$0, $0 + ".gz"] }.map { root + "/" + $0 }
        let inFolder = InputLayout.inputFolders.contains { target.hasPrefix(root + "/" + $0 + "/") }
        if inFolder || inputNames.contains(target) {
            throw PackedFileError(
                path: path,
                problem: "it would be read as an input of --data \(layout.root): write step files outside its folders")
        }
    }

    /// The longest name of a step's file: a file system's longest name (255 bytes) less the
    /// longest suffix of a file written beside it (a group's part, or seeds, of the most
    /// groups or partitions) and the longest temporary suffix.
    static let longestName: Int = {
        let groups = DistributedRun.AccountGrouping.most
        let besides = [
            GroupSnapshot.path(besides: "", group: AccountGroup(group: groups - 1, groups: groups)),
            RoutedRows.path(of: "", group: AccountGroup(group: groups - 1, groups: groups)),
            RequestPart(part: RequestPart.most - 1, parts: RequestPart.most).name("", "seeds"),
        ]
        return 255 - (besides.map(\.utf8.count).max() ?? 0) - AtomicFileWriter.longestTemporarySuffix
    }()

    /// Refuses `path` as `check(_:layout:)` does, and also when it, or a file the step writes
    /// beside it (`beside`), already holds anything but a file of the kind written there: a
    /// step writes over an earlier step file of its own kind, never over another step's file it
    /// may be reading (a snapshot, a group's part, routed rows) or any other file (a
    /// certificate given as `--trust-root`).
    static func check(_ path: String, layout: InputLayout, kind: String, beside: [(path: String, kind: String)] = [])
        throws
    {
        try check(path, layout: layout)
        for (written, kind) in [(path, kind)] + beside { try requireOwnKind(written, kind: kind) }
    }

    /// Refuses to write a `kind` file at `path` when something else is there: anything but an
    /// earlier `kind` file (a regular file whose first lines are those of one).
    static func requireOwnKind(_ path: String, kind: String) throws {
        guard FileSystem.kind(path) != .missing, !PackedFile.isStepFile(path, kind: kind) else { return }
        throw PackedFileError(
            path: path,
            problem:
                "it is not a \(kind) file, and the step would write one over it: give the step a path of its own "
                + "(a step writes over its own earlier files only)")
    }
}
