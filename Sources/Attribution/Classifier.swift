import Ingest
import Ledger
import Support

/// What attribution decided for one row: its class, the transaction it is tied to (its
/// position in `Ledger.transactions`; nil for none), and for rows after an end, the phase.
package struct Classification: Sendable, Hashable {
    package var costClass: CostClass
    package var transaction: Int?
    package var phase: LeakPhase?
}

/// Decides the class of a row from the ledger's answer for its account and time.
package struct Classifier: Sendable {
    package let ledger: Ledger
    package let grace: TimeSpan

    package init(ledger: Ledger, grace: TimeSpan) {
        self.ledger = ledger
        self.grace = grace
    }

    /// Where `t` falls relative to the notice of the transaction's end and the grace after it.
    package func phase(of transaction: Int, at t: Timestamp) -> LeakPhase {
        guard let end = ledger.transactions[transaction].end else { return .beyondGrace }
        if t < end.noticedAt { return .beforeNotice }
        return t.milliseconds < end.noticedAt.milliseconds + grace.milliseconds ? .withinGrace : .beyondGrace
    }

    /// `account` is the ledger's account index, or nil for an account no transaction links to.
    @inline(__always)
    package func classify(account: Int32?, at t: Timestamp) -> Classification {
        let classification = classifyByAccess(account: account, at: t)
        // Who paid decides every class tied to a transaction: when Apple's value for it is one
        // this version does not know, the cost is counted apart, never guessed paid or leaked.
        if let index = classification.transaction, ledger.transactions[index].ownership == nil {
            return Classification(costClass: .unknownOwnership, transaction: index, phase: nil)
        }
        return classification
    }

    @inline(__always)
    private func classifyByAccess(account: Int32?, at t: Timestamp) -> Classification {
        guard let account else { return Classification(costClass: .unlinked, transaction: nil, phase: nil) }
        switch ledger.access(account: Int(account), at: t) {
        case .entitled(let index):
            let ownership = ledger.transactions[index].ownership
            return Classification(
                costClass: ownership == .purchased ? .paid : .familyShared, transaction: index, phase: nil)
        case .premature(let index):
            return Classification(costClass: .premature, transaction: index, phase: nil)
        case .ended(let index):
            guard let end = ledger.transactions[index].end else {
                return Classification(costClass: .unentitled, transaction: nil, phase: nil)
            }
            let costClass: CostClass =
                switch end.kind {
                case .refundFull, .refundProrated, .familyRefund: .afterRefund
                case .familyExit: .afterFamilyExit
                case .expiry, .upgrade: .afterExpiry
                }
            return Classification(costClass: costClass, transaction: index, phase: phase(of: index, at: t))
        case .billingGrace(let index):
            return Classification(costClass: .billingGrace, transaction: index, phase: nil)
        case .none:
            return Classification(costClass: .unentitled, transaction: nil, phase: nil)
        }
    }
}
