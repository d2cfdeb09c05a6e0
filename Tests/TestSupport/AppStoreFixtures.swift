import Attribution
import Foundation
import Ingest
import Ledger
import Pipeline
import Report
import Support
import Synthetic

/// Builds App Store inputs by hand for tests: transactions and notifications as JSON, signed
/// into JWS form, written into a real `--data` folder and read through the real code path.
struct AppStoreFixture {
    /// 2026-10-01T00:00:00Z, the start of the month most tests look at.
    static let october: Int64 = 1_790_812_800_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    var notificationLines: [String] = []
    var historyLines: [String] = []
    var accounts: [(String, String, String)] = []
    var products = "product_id,type,period,credits\n"
    var costs = "timestamp,account_id,category,cost,currency,quantity,unit\n"
    var rates: String?
    var consent: String?
    var deliveries: String?

    /// A transaction payload as a JSON object; `extra` adds or overrides fields.
    static func transaction(
        _ id: String, original: String? = nil, product: String = "pro.lifetime", ownership: String = "PURCHASED",
        type: String = "Non-Consumable", purchase: Int64, expires: Int64? = nil, signed: Int64, extra: [String: Any] = [:]
    ) -> [String: Any] {
        var json: [String: Any] = [
            "transactionId": id, "originalTransactionId": original ?? id, "productId": product, "purchaseDate": purchase,
            "originalPurchaseDate": purchase, "quantity": 1, "type": type, "inAppOwnershipType": ownership, "signedDate": signed,
            "environment": "Production", "price": 9990, "currency": "USD",
        ]
        if let expires { json["expiresDate"] = expires }
        for (key, value) in extra { json[key] = value }
        return json
    }

    static func json(_ object: Any) -> String {
        // A fixture that cannot be serialized becomes invalid JSON, which every test that reads it refuses.
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "not JSON"
    }

    /// The chain fixtures are signed with: a test chain, trusted only where a test names its root.
    static let chain = TestChain(seed: 42)

    /// `object` as a JWS signed ES256 with the fixture chain, as Apple signs its data.
    static func jws(_ object: Any) -> String {
        chain.sign(Array(json(object).utf8))
    }

    /// The payload of a JWS, as JSON (a test reads what a generated file holds).
    static func payload(_ jws: String) -> [String: Any] {
        let parts = jws.split(separator: ".")
        guard parts.count == 3, let bytes = Base64URL.decode(Array(parts[1].utf8)),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { return [:] }
        return object
    }

    /// Signature checks trusting the fixture chain, as `--trust-root` would.
    static func signatures(environment: AppStoreEnvironment = .production, asOf: Timestamp, also: [[UInt8]] = [])
        -> SignaturePolicy
    {
        SignaturePolicy(roots: [AppleRoot.g3, chain.root] + also, environment: environment, fallbackTime: asOf)
    }

    /// Adds a V2 notification as Apple sends it: `{"signedPayload": JWS, "receivedAt": ...}`.
    mutating func notify(
        _ type: String, uuid: String, signed: Int64, transaction: [String: Any]?, received: Int64? = nil,
        environment: String = "Production", subtype: String? = nil, reason: String? = nil, renewal: [String: Any]? = nil
    ) {
        var data: [String: Any] = ["environment": environment, "bundleId": "com.example.app", "appAppleId": 1]
        if let transaction { data["signedTransactionInfo"] = AppStoreFixture.jws(transaction) }
        if let renewal { data["signedRenewalInfo"] = AppStoreFixture.jws(renewal) }
        if let reason { data["consumptionRequestReason"] = reason }
        var payload: [String: Any] = [
            "notificationType": type, "notificationUUID": uuid, "version": "2.0", "signedDate": signed, "data": data,
        ]
        if let subtype { payload["subtype"] = subtype }
        var body: [String: Any] = ["signedPayload": AppStoreFixture.jws(payload)]
        if let received { body["receivedAt"] = received }
        notificationLines.append(AppStoreFixture.json(body))
    }

    /// Adds a cost row at `at` (epoch milliseconds) for `account`.
    mutating func cost(
        _ account: String, at: Int64, _ amount: String, category: String = "compute", currency: String = "USD",
        credits: Int? = nil
    ) {
        let metered = credits.map { "\($0),credit" } ?? ","
        costs += "\(Timestamp(milliseconds: at)),\(account),\(category),\(amount),\(currency),\(metered)\n"
    }

    mutating func link(_ account: String, _ original: String, token: String = "") {
        accounts.append((account, original, token))
    }

    /// Writes the folder and returns its path.
    func write(_ label: String = #function) throws -> String {
        let root = try TestFiles.temporaryDirectory(label)
        try TestFiles.write(notificationLines.joined(separator: "\n") + "\n", to: root + "/notifications/n.jsonl")
        if !historyLines.isEmpty {
            try TestFiles.write(historyLines.joined(separator: "\n") + "\n", to: root + "/transactions/history.jsonl")
        }
        let accountText =
            "account_id,original_transaction_id,app_account_token\n"
            + accounts.map { "\($0.0),\($0.1),\($0.2)\n" }.joined()
        try TestFiles.write(accountText, to: root + "/accounts.csv")
        try TestFiles.write(products, to: root + "/products.csv")
        try TestFiles.write(costs, to: root + "/costs/costs.csv")
        if let rates { try TestFiles.write(rates, to: root + "/fx.csv") }
        if let consent { try TestFiles.write(consent, to: root + "/consent.csv") }
        if let deliveries { try TestFiles.write(deliveries, to: root + "/deliveries.csv") }
        try Data(AppStoreFixture.chain.root).write(to: URL(fileURLWithPath: root + "/" + DatasetGenerator.testRootName))
        return root
    }
}

extension AppStoreFixture {
    /// A family: purchaser P (acct-p) buys lifetime at t0; members M1, M2 get it at t0 + 1h;
    /// P is refunded at t0 + 10d; the members' REVOKEs carry a dated FAMILY_REVOKE 3 minutes later.
    ///
    /// The accounts are named `purchaser` and `members` (two).
    static func familyRefund(purchaser: String = "acct-p", members: [String] = ["acct-m1", "acct-m2"]) -> AppStoreFixture {
        typealias F = AppStoreFixture
        let (t0, h, d) = (october, hour, day)
        var fixture = F()
        let refundAt = t0 + 10 * d
        fixture.notify("ONE_TIME_CHARGE", uuid: "buy", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0))
        for (id, account) in zip(["201", "202"], members) {
            fixture.notify(
                "ONE_TIME_CHARGE", uuid: "share-\(id)", signed: t0 + h,
                transaction: F.transaction(id, ownership: "FAMILY_SHARED", purchase: t0 + h, signed: t0 + h))
            fixture.notify(
                "REVOKE", uuid: "revoke-\(id)", signed: refundAt + 3 * 60_000,
                transaction: F.transaction(
                    id, ownership: "FAMILY_SHARED", purchase: t0 + h, signed: refundAt + 3 * 60_000,
                    extra: ["revocationDate": refundAt + 3 * 60_000, "revocationReason": 0, "revocationType": "FAMILY_REVOKE"]),
                received: refundAt + 4 * 60_000)
            fixture.link(account, id)
        }
        fixture.notify(
            "REFUND", uuid: "refund", signed: refundAt + 1000,
            transaction: F.transaction(
                "100", purchase: t0, signed: refundAt + 1000,
                extra: ["revocationDate": refundAt, "revocationReason": 1, "revocationType": "REFUND_FULL"]),
            received: refundAt + 2000)
        fixture.link(purchaser, "100")
        return fixture
    }
}

extension AppStoreFixture {
    /// A purchaser (acct-p, transaction 100) buys lifetime at t0 and shares it with a member
    /// (acct-m, 201) at t0 + 1h, who leaves the family at t0 + 5d: an undated REVOKE of 201,
    /// received 30 s after it was signed.
    static func memberLeavesTheFamily() -> AppStoreFixture {
        typealias F = AppStoreFixture
        let (t0, h, d) = (october, hour, day)
        var fixture = F()
        fixture.notify("ONE_TIME_CHARGE", uuid: "buy", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0))
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "share", signed: t0 + h,
            transaction: F.transaction("201", ownership: "FAMILY_SHARED", purchase: t0 + h, signed: t0 + h))
        fixture.notify(
            "REVOKE", uuid: "leave", signed: t0 + 5 * d,
            transaction: F.transaction("201", ownership: "FAMILY_SHARED", purchase: t0 + h, signed: t0 + 5 * d),
            received: t0 + 5 * d + 30_000)
        fixture.link("acct-p", "100")
        fixture.link("acct-m", "201")
        return fixture
    }
}

extension AppStoreFixture {
    /// A lifetime purchase at t0 (transaction 100, linked to `purchaser`), refunded at t0 + 2d,
    /// the refund reversed at t0 + 6d.
    static func reversedRefund(purchaser: String) -> AppStoreFixture {
        typealias F = AppStoreFixture
        let (t0, d) = (october, day)
        var fixture = F()
        fixture.notify("ONE_TIME_CHARGE", uuid: "buy", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0))
        fixture.notify(
            "REFUND", uuid: "refund", signed: t0 + 2 * d,
            transaction: F.transaction(
                "100", purchase: t0, signed: t0 + 2 * d, extra: ["revocationDate": t0 + 2 * d, "revocationReason": 0]))
        fixture.notify(
            "REFUND_REVERSED", uuid: "reversed", signed: t0 + 6 * d,
            transaction: F.transaction("100", purchase: t0, signed: t0 + 6 * d))
        fixture.link(purchaser, "100")
        return fixture
    }
}

/// Reads a fixture folder through ingestion and the ledger, as every command does.
func buildLedger(
    _ root: String, asOf: Int64 = AppStoreFixture.october + 60 * AppStoreFixture.day,
    environment: AppStoreEnvironment = .production
) throws -> (ledger: Ledger, load: AppStoreLoad, rejects: RejectLog) {
    let rejects = RejectLog(keepingFirst: 100)
    let layout = try InputLayout(root: root)
    let cutOff = Timestamp(milliseconds: asOf)
    let load = try AppStoreLoad(
        layout: layout,
        options: AppStoreOptions(
            environment: environment, asOf: cutOff,
            signatures: AppStoreFixture.signatures(environment: environment, asOf: cutOff, also: try testRoots(root))),
        rejects: rejects)
    let ledger = try Ledger(
        input: load.input, accountLinks: load.accountLinks, products: load.products, options: LedgerOptions(asOf: cutOff),
        rejects: rejects)
    return (ledger, load, rejects)
}

extension Ledger {
    func access(_ account: String, at milliseconds: Int64) -> Access {
        guard let index = accountIndex(of: account) else { return .none }
        return access(account: index, at: Timestamp(milliseconds: milliseconds))
    }

    func index(_ transaction: String) -> Int { index(of: transaction) ?? -1 }
}
