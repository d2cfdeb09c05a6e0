import Glibc
import Synchronization

/// Files a step must read as another step saw them (a cost file as the snapshot recorded it, an
/// App Store file as it was split): every opening of one for reading compares the file it
/// opened, on the descriptor, with what was recorded.
///
/// A step checks each file once by name before it starts, then opens it again for each part it
/// reads; a file swapped in between (with write access to `--data`) would otherwise be read
/// without a word. Comparing the opened descriptor closes that window.
package enum PinnedFiles {
    /// What a file must still be, and what to say when it is not.
    package struct Pin: Sendable, Hashable {
        package var bytes: Int
        package var modified: Int64
        package var changed: Int64
        package var inode: UInt64
        /// What the refusal says after `cannot open for reading:`.
        package var explanation: String
        /// True when only the inode must be the same: the file may grow (a reading of it stops
        /// at the length it had), not be another file put in its place.
        package var inodeOnly = false

        package init(bytes: Int, modified: Int64, changed: Int64, inode: UInt64, explanation: String) {
            self.bytes = bytes
            self.modified = modified
            self.changed = changed
            self.inode = inode
            self.explanation = explanation
        }

        /// A pin of the file's inode alone.
        package static func inode(_ inode: UInt64, explanation: String) -> Pin {
            var pin = Pin(bytes: 0, modified: 0, changed: 0, inode: inode, explanation: explanation)
            pin.inodeOnly = true
            return pin
        }
    }

    private static let pins = Mutex<[String: Pin]>([:])

    /// From now on in this process, `path` opened for reading must be the file `pin` describes.
    package static func pin(_ path: String, _ pin: Pin) {
        pins.withLock { $0[path] = pin }
    }

    /// `path` opened for reading may be any file again.
    package static func unpin(_ path: String) {
        _ = pins.withLock { $0.removeValue(forKey: path) }
    }

    /// The pin of `path`, if any.
    package static func pinned(_ path: String) -> Pin? {
        pins.withLock { $0[path] }
    }

    /// Refuses the file open on `fd` for `path` unless it is what its pin describes (when it has one).
    static func check(_ path: String, fd: Int32) throws(SystemError) {
        guard let pin = pinned(path) else { return }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError(operation: "read the size of", path: path, code: errno) }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        guard
            UInt64(info.st_ino) == pin.inode
                && (pin.inodeOnly
                    || (Int(info.st_size) == pin.bytes && modified == pin.modified && changed == pin.changed))
        else {
            throw SystemError(operation: "open for reading", path: path, code: ESTALE, explanation: pin.explanation)
        }
    }
}
