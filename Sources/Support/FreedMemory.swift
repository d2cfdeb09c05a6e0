internal import CSystem

/// How the process's freed memory is kept.
package enum FreedMemory {
    /// Keeps freed blocks in the process for its later requests rather than giving them back to
    /// the system at once.
    ///
    /// A batch run allocates and frees the same large buffers over and over (a gzip App Store
    /// file's pieces of about 4 MB, tables that grow): given back, each one comes again as pages
    /// the kernel zeroes on first touch. Kept, they are reused as they are. Called once, first
    /// thing in `main`.
    package static func keepForReuse() {
        refund_cost_keep_freed_memory()
    }
}
