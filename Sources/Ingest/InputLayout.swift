import Support

/// The files of a `--data` folder, found once and listed in a stable order.
///
/// ```
/// DIR/notifications/*.jsonl, *.csv   transactions/*.jsonl   costs/*.csv
/// DIR/accounts.csv  products.csv  fx.csv  consent.csv  deliveries.csv
/// ```
///
/// Every entry of `notifications/`, `transactions/` and `costs/` is either read or refused:
/// extensions match without regard to case, and anything else (another extension, a folder, a
/// pipe or a device) is a rejected input with the reason, never skipped silently.
package struct InputLayout: Sendable, Hashable, Codable {
    package var root: String
    package var costFiles: [String]
    package var notificationFiles: [String]
    package var transactionFiles: [String]
    package var accounts: String?
    package var products: String?
    package var exchangeRates: String?
    package var consent: String?
    package var deliveries: String?
    /// What a unit of usage costs, for usage rows without a cost (optional).
    package var prices: String?
    /// Google Play's files, each folder optional (docs/inputs.md, Google Play).
    package var play = PlayFiles()
    /// Entries of the input folders that cannot be read as inputs, one reject each.
    package var refused: [Reject] = []

    /// `play/notifications/`, `play/voided/`, `play/orders/` and `play/purchases/`, JSON Lines each.
    package struct PlayFiles: Sendable, Hashable, Codable {
        package var notifications: [String] = []
        package var voided: [String] = []
        package var orders: [String] = []
        package var purchases: [String] = []

        package init() {}

        /// The folders of `play/`, each with what it holds.
        package static let folders = ["notifications", "voided", "orders", "purchases"]

        package var all: [String] { notifications + voided + orders + purchases }
        package var isEmpty: Bool { all.isEmpty }
    }

    /// The folders of `root` whose files are inputs (read, or refused as misplaced ones).
    package static let inputFolders = ["costs", "notifications", "transactions", "play"]
    /// The files of `root` read when present, each also as `NAME.gz`.
    package static let optionalFiles = ["accounts.csv", "products.csv", "fx.csv", "consent.csv", "deliveries.csv", "prices.csv"]
    /// Every file of `root` a run reads when present: those above, and the rules that spread a
    /// cloud bill's pools (`AllocationRules`).
    package static let filesReadWhenPresent = optionalFiles + [AllocationRules.fileName]

    package init(root: String) throws(InputLayoutError) {
        guard FileSystem.kind(root) == .directory else { throw .notAFolder(root) }
        self.root = root
        var refused: [Reject] = []
        // JSON lines are OpenMeter events (`--cost-format ...:openmeter`); refused otherwise, with the fix.
        costFiles = try InputLayout.files(in: "costs", of: root, endingIn: [".csv", ".jsonl"], refused: &refused)
        notificationFiles = try InputLayout.files(in: "notifications", of: root, endingIn: [".jsonl", ".csv"], refused: &refused)
        transactionFiles = try InputLayout.files(in: "transactions", of: root, endingIn: [".jsonl"], refused: &refused)
        play = try InputLayout.playFiles(of: root, refused: &refused)
        // The small files may be gzip too: the plain name first, then the .gz one.
        func optional(_ name: String) -> String? { InputLayout.optional(name, of: root, refused: &refused) }
        accounts = optional("accounts.csv")
        products = optional("products.csv")
        exchangeRates = optional("fx.csv")
        consent = optional("consent.csv")
        deliveries = optional("deliveries.csv")
        prices = optional("prices.csv")
        // Read by `AllocationRules` with the cloud bills; refused here when it is not a file.
        _ = optional(AllocationRules.fileName)
        refused += InputLayout.otherCases(of: root)
        self.refused = refused
        // Refused entries of costs/ (or the folder itself, or one named in another case) say more.
        let costsRefused = refused.contains {
            $0.file.hasPrefix(root + "/costs/") || ($0.file == root + "/" + $0.value && $0.value.lowercased() == "costs")
        }
        if costFiles.isEmpty && !costsRefused { throw .noCostFiles(root) }
    }

    /// Every input file a report reads, in the order it reads them (for byte counts and checksums);
    /// `play` apart, which only `validate` reads in this version.
    package var allFiles: [String] {
        notificationFiles + transactionFiles + [accounts, products, exchangeRates, consent, deliveries, prices].compactMap { $0 }
            + costFiles
    }

    /// An entry of `root` named as an input in another case (`Notifications/`, `Accounts.csv`):
    /// only the names as written are read, so it would be left out without a word.
    private static func otherCases(of root: String) -> [Reject] {
        let names = inputFolders + filesReadWhenPresent.flatMap { [$0, $0 + ".gz"] }
        let lowered = Dictionary(uniqueKeysWithValues: names.map { ($0.lowercased(), $0) })
        let entries = (try? FileSystem.list(root)) ?? []
        return entries.compactMap { entry in
            guard let name = lowered[entry.name.lowercased()], name != entry.name else { return nil }
            return Reject(
                file: root + "/" + entry.name, line: 0, field: "", value: entry.name,
                reason: "named as \(name) in another case: only \(name) is read; rename it")
        }
    }

    private static func optional(_ name: String, of root: String, refused: inout [Reject]) -> String? {
        for candidate in [name, name + ".gz"] {
            let path = root + "/" + candidate
            switch FileSystem.kind(path) {
            case .missing where !FileSystem.isSymbolicLink(path): continue
            case .regularFile: return path
            case .missing, .directory, .special:
                refused.append(
                    Reject(
                        file: path, line: 0, field: "", value: candidate,
                        reason: "not a regular file; \(candidate) must be a file"))
                return nil
            }
        }
        return nil
    }

    /// The files of `play/`'s folders; anything else in `play/` is refused.
    private static func playFiles(of root: String, refused: inout [Reject]) throws(InputLayoutError) -> PlayFiles {
        let folder = root + "/play"
        switch FileSystem.kind(folder) {
        case .missing where !FileSystem.isSymbolicLink(folder): return PlayFiles()
        case .directory: break
        case .missing, .regularFile, .special:
            refused.append(
                Reject(file: folder, line: 0, field: "", value: "play", reason: "not a folder; play/ holds Google Play's folders")
            )
            return PlayFiles()
        }
        let entries: [FileSystem.Entry]
        do {
            entries = try FileSystem.list(folder)
        } catch {
            throw .unreadable(error)
        }
        // Its folders are refused by `files(in:)` when they are not folders, once.
        for entry in entries where !PlayFiles.folders.contains(entry.name) {
            refused.append(
                Reject(
                    file: folder + "/" + entry.name, line: 0, field: "", value: entry.name,
                    reason: "play/ holds only the folders " + PlayFiles.folders.map { $0 + "/" }.joined(separator: ", ")
                        + "; move it into one of them or out"))
        }
        var files = PlayFiles()
        func jsonLines(_ name: String) throws(InputLayoutError) -> [String] {
            try InputLayout.files(in: "play/" + name, of: root, endingIn: [".jsonl"], refused: &refused)
        }
        files.notifications = try jsonLines("notifications")
        files.voided = try jsonLines("voided")
        files.orders = try jsonLines("orders")
        files.purchases = try jsonLines("purchases")
        return files
    }

    private static func files(
        in folderName: String, of root: String, endingIn suffixes: [String], refused: inout [Reject]
    ) throws(InputLayoutError) -> [String] {
        let folder = root + "/" + folderName
        switch FileSystem.kind(folder) {
        case .directory: break
        case .missing where !FileSystem.isSymbolicLink(folder): return []
        case .missing, .regularFile, .special:
            refused.append(
                Reject(
                    file: folder, line: 0, field: "", value: folderName,
                    reason: "not a folder (a file, a pipe or device, or a link to nothing); \(folderName)/ must be a folder"))
            return []
        }
        let entries: [FileSystem.Entry]
        do {
            entries = try FileSystem.list(folder)
        } catch {
            throw .unreadable(error)
        }
        var files: [String] = []
        // Names compare as text: two spellings of the same letters (é composed or not) are one.
        var taken = Set<String>()
        for entry in entries {
            let path = folder + "/" + entry.name
            if let reason = refusal(entry, suffixes: suffixes, folder: folderName) {
                refused.append(Reject(file: path, line: 0, field: "", value: entry.name, reason: reason))
            } else if !taken.insert(entry.name).inserted {
                refused.append(
                    Reject(
                        file: path, line: 0, field: "", value: entry.name,
                        reason: "its name reads as another file's of \(folderName)/ (the same letters, composed "
                            + "another way): rename one of them"))
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// Why an entry is not read, or nil when it is an input.
    private static func refusal(_ entry: FileSystem.Entry, suffixes: [String], folder: String) -> String? {
        let wanted = suffixes.joined(separator: " or ")
        guard entry.nameIsUTF8 else {
            return "its name is not UTF-8 (the bytes that are not are shown as U+FFFD); rename it"
        }
        // Its name would be shown in messages and lines that a line break in it could forge.
        if !Reject.isPrintable(entry.name) {
            return "its name holds a line break or another control character; rename it"
        }
        switch entry.kind {
        case .directory:
            return "a folder inside \(folder)/: inputs are not read from sub-folders; move its files into \(folder)/"
        case .special, .missing:
            return "not a regular file (a pipe, socket, device or broken link): only regular files are read"
        case .regularFile:
            let name = entry.name.lowercased()
            if suffixes.contains(where: { name.hasSuffix($0) || name.hasSuffix($0 + ".gz") }) { return nil }
            return "not a \(wanted) file (or the same with .gz): files in \(folder)/ must end in \(wanted) "
                + "(any case); rename it or move it out"
        }
    }
}

package enum InputLayoutError: DiagnosticError, Sendable, Hashable {
    case notAFolder(String)
    case noCostFiles(String)
    case unreadable(SystemError)

    package var diagnostic: Diagnostic {
        switch self {
        case .notAFolder(let path):
            Diagnostic("not a folder; --data takes the folder that holds costs/, notifications/ and accounts.csv", file: path)
        case .noCostFiles(let path):
            Diagnostic(
                "no cost files: put delivery-cost CSVs in \(path)/costs/*.csv (header timestamp,account_id,category,cost)",
                file: path)
        case .unreadable(let error): error.diagnostic
        }
    }
}
