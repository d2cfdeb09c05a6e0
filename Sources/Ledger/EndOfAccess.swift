import Ingest
import Support

/// Decides what ended a transaction's access and when the server could know (docs/domain.md rule 3).
enum EndOfAccess {
    /// For a consumable, which grants no standing access, only a refund counts: it voids the
    /// pack's remaining credits (rule 7), and rows drawn on them after it are measured from it.
    static func end(of transaction: LedgerTransaction, facts: NotificationFacts, purchases: PurchaseIndex) -> AccessEnd? {
        let box = transaction.box
        var revocation: AccessEnd?
        if let revoked = box.record.revocationDate {
            let notice = facts.revocationNotice[box.record.transactionID]
            revocation = AccessEnd(
                kind: kind(of: transaction, revokedAt: revoked, purchases: purchases), at: revoked,
                noticedAt: notice?.at ?? facts.firstRevokedCopy[box.record.transactionID] ?? box.record.signedDate,
                notificationUUID: notice?.uuid)
        } else if transaction.ownership == .familyShared, let exit = facts.undatedExit[box.record.transactionID],
            exit.signed >= box.record.purchaseDate
        {
            revocation = AccessEnd(kind: .familyExit, at: exit.signed, noticedAt: exit.notice, notificationUUID: exit.uuid)
        }
        guard transaction.grantsAccess else { return revocation }
        if let expires = box.record.expiresDate, revocation.map({ expires < $0.at }) ?? true {
            return AccessEnd(kind: .expiry, at: expires, noticedAt: expires, notificationUUID: nil)
        }
        return revocation
    }

    private static func kind(of transaction: LedgerTransaction, revokedAt: Timestamp, purchases: PurchaseIndex) -> EndKind {
        let box = transaction.box
        if box.record.isUpgraded { return .upgrade }
        switch transaction.ownership {
        case .purchased, nil:
            // An ownership this version does not know ends as a refund would; its cost is
            // reported apart whatever its end (docs/domain.md rule 6).
            return .ofRefund(box.record)
        case .familyShared:
            // Since December 2025 Apple also dates a member's exit; with no refund of the same
            // product within the hour, a FAMILY_REVOKE for "other" reasons is the member leaving.
            if box.record.revocationType == .familyRevoke, box.record.revocationReason == .other,
                !purchases.anyRefund(of: box.record.productID, near: revokedAt)
            {
                return .familyExit
            }
            return .familyRefund
        }
    }
}
