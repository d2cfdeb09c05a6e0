import Support

/// Whose each Play purchase token is: the account the app named at purchase
/// (`obfuscatedExternalAccountId`), found through the purchase's token when its line carries
/// one, else through its order ids and the orders that name them.
package struct PlayAccounts: Sendable {
    package private(set) var byToken: [String: String] = [:]
    /// Tokens two purchases give to different accounts: their first account is kept.
    package private(set) var conflicts: [PlayAccountConflict] = []

    package init(_ input: PlayInput) {
        conflicts = input.accountConflicts
        var tokenOfOrder: [String: String] = [:]
        for order in input.orders { tokenOfOrder[order.orderID] = order.purchaseToken }
        for purchase in input.purchases {
            guard let account = purchase.account else { continue }
            let tokens = purchase.purchaseToken.map { [$0] } ?? purchase.orderIDs.compactMap { tokenOfOrder[$0] }
            for token in Set(tokens).sorted() {
                if let kept = byToken[token] {
                    if kept != account {
                        conflicts.append(PlayAccountConflict(token: token, kept: kept, other: account, source: purchase.source))
                    }
                } else {
                    byToken[token] = account
                }
            }
        }
    }

    package func account(ofToken token: String) -> String? { byToken[token] }
}

/// A purchase token two purchases give to different accounts.
package struct PlayAccountConflict: Sendable, Hashable, Codable {
    package var token: String
    /// The account read first, the one kept.
    package var kept: String
    package var other: String
    /// Where the other was read.
    package var source: SourceLocation
}
