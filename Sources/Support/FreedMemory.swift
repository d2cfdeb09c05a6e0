internal import CSystem

/// How the process's freed memory is kept.
package enum FreedMemory {
    /// Gives a block of 1 MB or more a mapping of its own, handed back when it is freed.
    ///
    /// Smaller blocks are kept for the process's later requests. Called once, first thing in
    /// `main`.
    ///
    /// An array or a table that doubles, left in the heap, leaves a hole when it moves that the
    /// small blocks allocated after it keep from being given back: the process's memory becomes
    /// the sum of its stages' largest blocks instead of the largest stage.
    package static func setPolicy() {
        refund_cost_set_freed_memory_policy(Int32(ownMappingBytes))
    }

    /// The size from which a block has a mapping of its own (`setPolicy`): its pages are
    /// resident only once written, so room an array keeps past what it ever held takes no memory.
    package static let ownMappingBytes = 1 << 20

    /// Gives the pages of every free block back to the system, once a stage's large structures
    /// are let go, so the next stage's peak is what it holds, not what the last one held.
    package static func giveBack() {
        refund_cost_give_back_freed_memory()
    }
}
