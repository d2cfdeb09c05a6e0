import Ingest
import Support

/// Where a step may write the file it is asked to: not over an input of the run, nor among
/// the files of a folder the layout reads (notifications/, transactions/, costs/), where it
/// would be read as data by the next step or the next run.
enum StepOutput {
    /// Refuses `path` (a step's output, as the user named it) when it is an input of `layout`
    /// or lies in one of its input folders.
    static func check(_ path: String, layout: InputLayout) throws {
        let target = FileSystem.resolvedPath(path)
        let inputs = layout.allFiles + layout.play.all
        if let input = inputs.first(where: { FileSystem.resolvedPath($0) == target }) {
            throw PackedFileError(
                path: path, problem: "it is an input of --data \(layout.root) (\(input)): write step files outside its folders")
        }
        let folders = Set(
            ["notifications", "transactions", "costs"].map { FileSystem.resolvedPath(layout.root + "/" + $0) }
                + inputs.map { FileSystem.resolvedPath(folder(of: $0)) }
        ).subtracting([FileSystem.resolvedPath(layout.root)])
        if folders.contains(FileSystem.resolvedPath(folder(of: path))) {
            throw PackedFileError(
                path: path,
                problem: "it is in a folder of inputs of --data \(layout.root): write step files outside its folders")
        }
    }

    /// The folder `path` is in, as written ("." for a bare name).
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
