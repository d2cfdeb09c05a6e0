import Support

/// The files of a `--data` folder, found once and listed in a stable order.
///
/// ```
/// DIR/notifications/*.jsonl, *.csv   transactions/*.jsonl   costs/*.csv
/// DIR/accounts.csv  products.csv  fx.csv  consent.csv  deliveries.csv
/// ```
package struct InputLayout: Sendable, Hashable {
    package var root: String
    package var costFiles: [String]
    package var notificationFiles: [String]
    package var transactionFiles: [String]
    package var accounts: String?
    package var products: String?
    package var exchangeRates: String?
    package var consent: String?
    package var deliveries: String?

    package init(root: String) throws(InputLayoutError) {
        guard FileSystem.isDirectory(root) else { throw .notAFolder(root) }
        self.root = root
        costFiles = try InputLayout.files(in: root + "/costs", endingIn: [".csv"])
        notificationFiles = try InputLayout.files(in: root + "/notifications", endingIn: [".jsonl", ".csv"])
        transactionFiles = try InputLayout.files(in: root + "/transactions", endingIn: [".jsonl"])
        func optional(_ name: String) -> String? {
            let path = root + "/" + name
            return FileSystem.exists(path) ? path : nil
        }
        accounts = optional("accounts.csv")
        products = optional("products.csv")
        exchangeRates = optional("fx.csv")
        consent = optional("consent.csv")
        deliveries = optional("deliveries.csv")
        if costFiles.isEmpty { throw .noCostFiles(root) }
    }

    /// Every input file, in the order a run reads them (for byte counts and checksums).
    package var allFiles: [String] {
        notificationFiles + transactionFiles + [accounts, products, exchangeRates, consent, deliveries].compactMap { $0 }
            + costFiles
    }

    private static func files(in folder: String, endingIn suffixes: [String]) throws(InputLayoutError) -> [String] {
        guard FileSystem.isDirectory(folder) else { return [] }
        do {
            return try FileSystem.list(folder)
                .filter { entry in
                    !entry.isDirectory && suffixes.contains { entry.name.hasSuffix($0) } && !entry.name.hasPrefix(".")
                }
                .map { folder + "/" + $0.name }
        } catch {
            throw .unreadable(error)
        }
    }
}

package enum InputLayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    case notAFolder(String)
    case noCostFiles(String)
    case unreadable(SystemError)

    package var description: String {
        switch self {
        case .notAFolder(let path):
            "\(path): error: not a folder; --data takes the folder that holds costs/, notifications/ and accounts.csv"
        case .noCostFiles(let path):
            "\(path): error: no cost files: put delivery-cost CSVs in \(path)/costs/*.csv (header timestamp,account_id,category,cost)"
        case .unreadable(let error): error.description
        }
    }
}
