import Support

/// The App Store side of a `--data` folder, read and checked: notifications, history,
/// account links and the product catalog.
///
/// Cost files are streamed separately.
package struct AppStoreLoad: Sendable {
    package var input: AppStoreInput
    /// The rows of accounts.csv; empty once `releaseRecords` let them go.
    package private(set) var accountLinks: [AccountLinkRow]
    /// How many rows of accounts.csv were read, kept when the rows are let go.
    package let accountLinkCount: Int
    package var products: [String: Product]

    package init(input: AppStoreInput, accountLinks: [AccountLinkRow], products: [String: Product]) {
        self.input = input
        self.accountLinks = accountLinks
        accountLinkCount = accountLinks.count
        self.products = products
    }

    /// Reads the App Store side of `layout`; with `decoded`, from the pieces of its App Store
    /// files decoded elsewhere (`refund-cost decode`) instead of the files.
    package init(
        layout: InputLayout, options: AppStoreOptions, rejects: RejectLog, verifiedFiles: VerifiedFiles? = nil,
        decoded: DecodedPieces? = nil, keepsNotification: @escaping (NotificationRecord) -> Bool = { _ in true },
        progress: @escaping (_ bytes: Int, _ lines: Int) -> Void = { _, _ in }
    ) throws {
        let reader = AppStoreReader(
            options: options, rejects: rejects, verifiedFiles: verifiedFiles, progress: progress,
            keepsNotification: keepsNotification)
        input = try decoded.map { try reader.read(decoded: $0, layout: layout) } ?? reader.read(layout)
        accountLinks = try layout.accounts.map { try AccountLinkReader.read(path: $0, rejects: rejects) } ?? []
        accountLinkCount = accountLinks.count
        products = try layout.products.map { try ProductCatalogReader.read(path: $0, rejects: rejects) } ?? [:]
    }

    /// Lets go of the records read (transactions, notifications, account rows).
    ///
    /// Once the ledger holds what it needs of them, a million accounts' rows are hundreds of
    /// megabytes that the cost rows would otherwise be read beside. Counts and checksums stay.
    package mutating func releaseRecords() {
        input.releaseRecords()
        accountLinks = []
    }

    /// The records and accounts.csv's rows, handed over to whoever builds the ledger from them:
    /// this load keeps only the counts and checksums, as after `releaseRecords`, so the ledger
    /// is their only holder and lets each go as soon as it is built from it.
    package mutating func handOverRecords() -> (input: AppStoreInput, accountLinks: [AccountLinkRow]) {
        defer { releaseRecords() }
        return (input, accountLinks)
    }
}
