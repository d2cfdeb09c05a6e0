internal import CSystem

/// A hint to the processor to fetch memory before it is needed, for lookups whose address is
/// known some work ahead of the access (a request id's slot, while the rest of its row is read).
package enum Prefetch {
    /// Starts bringing in the cache line at `address`, to be written; any address is safe.
    @inline(__always)
    package static func forWriting(_ address: UnsafeRawPointer) {
        refund_cost_prefetch_for_writing(address)
    }
}
