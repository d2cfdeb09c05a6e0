import Ingest
import Support

extension ScenarioBuilder {
    /// `wanted` refund requests on credit packs, signed in the last hours of the data, with
    /// their buyers' consent: open for `respond` as of the data's end (their 12 hours run on).
    ///
    /// Drawn after every household, so a dataset without them is byte for byte the same.
    mutating func openRequests(_ wanted: Int) {
        // Spread over every pack bought (some barely used, some used up), not the first ones.
        let candidates = transactions.filter { $0.type == .consumable && $0.revocationDate == nil && $0.purchase < windowEnd }
        guard !candidates.isEmpty, wanted > 0 else { return }
        let step = max(1, candidates.count / wanted)
        let packs = stride(from: candidates.count - 1, through: 0, by: -step).prefix(wanted).map { candidates[$0] }
        // Ten minutes apart, all inside the last 11 hours.
        let spacing = min(10 * 60_000, 11 * Self.hour / Int64(packs.count))
        let accounts = Dictionary(accountRows.map { ($0.token, $0.account) }, uniquingKeysWith: { first, _ in first })
        for (position, pack) in packs.enumerated() {
            notify(.consumptionRequest, nil, at: windowEnd - Int64(position + 1) * spacing, pack, reason: .unintendedPurchase)
            if let token = pack.token, let account = accounts[token] {
                consentRows.append((account, true, windowStart - 60 * Self.day))
            }
            count("open_consumption_request")
        }
    }
}
