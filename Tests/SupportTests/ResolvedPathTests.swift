import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// Where a path leads once the folders it names are made: what every check of an output
/// against the inputs compares.
@Suite("resolved paths")
struct ResolvedPathTests {
    /// A folder that does not exist yet, then `..`, names the folder it is in once it is made;
    /// `.` names nothing; a symbolic link among the existing folders is followed.
    @Test func foldersNotMadeYetAreWalkedAsTheyWillBe() throws {
        let base = FileSystem.resolvedPath(try TestFiles.temporaryDirectory())
        try FileManager.default.createDirectory(atPath: base + "/data", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/data")
        #expect(FileSystem.resolvedPath(base + "/missing/..") == base)
        #expect(FileSystem.resolvedPath(base + "/missing/../data") == base + "/data")
        #expect(FileSystem.resolvedPath(base + "/a/./b/../../data/x") == base + "/data/x")
        #expect(FileSystem.resolvedPath(base + "/link/new/../x") == base + "/data/x")
        #expect(FileSystem.resolvedPath(base + "/missing/../../" + URL(fileURLWithPath: base).lastPathComponent) == base)
        #expect(FileSystem.resolvedPath(base + "/new/file") == base + "/new/file")
    }
}
