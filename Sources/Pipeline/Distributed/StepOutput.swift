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
        let target = FileSystem.resolvedPath(path)
        let root = FileSystem.resolvedPath(layout.root)
        if let input = (layout.allFiles + layout.play.all).first(where: { FileSystem.resolvedPath($0) == target }) {
            throw PackedFileError(
                path: path, problem: "it is an input of --data \(layout.root) (\(input)): write step files outside its folders")
        }
        let inputNames = InputLayout.optionalFiles.flatMap { [$0, $0 + ".gz"] }.map { root + "/" + $0 }
        let inFolder = InputLayout.inputFolders.contains { target.hasPrefix(root + "/" + $0 + "/") }
        if inFolder || inputNames.contains(target) {
            throw PackedFileError(
                path: path,
                problem: "it would be read as an input of --data \(layout.root): write step files outside its folders")
        }
    }
}
