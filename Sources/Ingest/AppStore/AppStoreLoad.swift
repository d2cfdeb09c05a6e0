import Support

/// The App Store side of a `--data` folder, read and checked: notifications, history,
/// account links and the product catalog.
///
/// Cost files are streamed separately.
package struct AppStoreLoad: Sendable {
    package var input: AppStoreInput
    package var accountLinks: [AccountLinkRow]
    package var products: [String: Product]

    package init(input: AppStoreInput, accountLinks: [AccountLinkRow], products: [String: Product]) {
        self.input = input
        self.accountLinks = accountLinks
        self.products = products
    }

    package init(
        layout: InputLayout, options: AppStoreOptions, rejects: RejectLog, verifiedFiles: VerifiedFiles? = nil,
        progress: @escaping (_ bytes: Int, _ lines: Int) -> Void = { _, _ in }
    ) throws {
        input = try AppStoreReader(options: options, rejects: rejects, verifiedFiles: verifiedFiles, progress: progress)
            .read(layout)
        accountLinks = try layout.accounts.map { try AccountLinkReader.read(path: $0, rejects: rejects) } ?? []
        products = try layout.products.map { try ProductCatalogReader.read(path: $0, rejects: rejects) } ?? [:]
    }
}
