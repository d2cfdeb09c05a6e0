import Support

/// The folders of `--data` a fetch writes into, made folder by folder.
///
/// Each must be a folder of the data folder itself: one that is a link (to anywhere) is
/// refused, so a fetch never writes where the layout does not show it writing.
package enum FetchFolders {
    /// `data/relative` (`play/voided`), made where missing; returns its path.
    package static func make(_ relative: String, in data: String) throws -> String {
        var path = data
        for component in relative.split(separator: "/") {
            path += "/" + component
            if FileSystem.isSymbolicLink(path) { throw LinkedFolderError(path: path) }
            if !FileSystem.isDirectory(path) { try FileSystem.createDirectory(path) }
            // Made by another between the two looks, or a file there: still not a folder of its own.
            if FileSystem.isSymbolicLink(path) || !FileSystem.isDirectory(path) { throw LinkedFolderError(path: path) }
        }
        return path
    }
}

/// A folder a fetch would write into is a link or not a folder.
package struct LinkedFolderError: DiagnosticError {
    package var path: String

    package var diagnostic: Diagnostic {
        Diagnostic(
            "\(path) is a link or not a folder: fetch writes only into the data folder's own folders; "
                + "replace it with a folder (or move what it holds into one)")
    }
}
