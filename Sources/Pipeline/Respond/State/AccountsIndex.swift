import Ingest
import Support

/// accounts.csv as respond's state keeps it: the rows its reader accepted, found by account,
/// original transaction id and `appAccountToken`, so that a run answering a few requests does
/// not read a million rows again.
///
/// Built from the whole file by `AccountLinkReader` (its conflicts and rejects as a report
/// finds them), again whenever the file changes; kept in `links.N` (the rows, in file order)
/// and `link-index.N` (where each is, by key).
struct AccountsIndex: Sendable, Codable, Hashable {
    /// accounts.csv as it was read (nil: the folder has none).
    var path: String?
    var identity: FileSystem.Identity?
    /// What reading it refused.
    var rejects = RejectTally()
    /// A number no file of the state folder had before (a new index never overwrites one an
    /// older manifest may still name).
    var number: Int
    var rowsSums = BlockSums()
    var indexSums = BlockSums()

    static func paths(_ folder: String, number: Int) -> (rows: String, index: String) {
        (folder + "/links.\(number)", folder + "/link-index.\(number)")
    }

    var names: Set<String> { ["links.\(number)", "link-index.\(number)"] }

    /// Its files with their sums.
    func checkedFiles(in folder: String) -> [(String, BlockSums)] {
        let files = Self.paths(folder, number: number)
        return [(files.rows, rowsSums), (files.index, indexSums)]
    }

    /// Its files with the sizes the manifest names.
    func sizedFiles(in folder: String) -> [(String, Int)] {
        let files = Self.paths(folder, number: number)
        return [(files.rows, rowsSums.length), (files.index, indexSums.length)]
    }

    /// The index of accounts.csv as `layout` has it now: `state`'s when it was built from these
    /// bytes, else built again under a new number of the state's.
    static func upToDate(in state: inout RespondState, layout: InputLayout, folder: String) throws -> AccountsIndex {
        if let current = try state.accounts?.current(layout.accounts) {
            state.accounts = current
            return current
        }
        let built = try build(path: layout.accounts, folder: folder, number: state.nextNumber(), hash: state.hash)
        state.accounts = built
        return built
    }

    /// The CRC-64 of accounts.csv's bytes when it was read.
    var crc: UInt64 = 0

    /// This index when it was built from accounts.csv as the folder has it now (its identity
    /// brought up to date when only that moved: a `chmod` or a `touch` reads nothing again);
    /// nil when the file is another.
    func current(_ path: String?) throws -> AccountsIndex? {
        guard self.path == path else { return nil }
        let now = path.flatMap(FileSystem.identity)
        if now == identity { return self }
        guard let path, let now, try Self.crc(path) == crc else { return nil }
        var current = self
        current.identity = now
        return current
    }

    private static func crc(_ path: String) throws -> UInt64 {
        try FileDescriptor.readAll(path).withUnsafeBytes { Checksum.crc64($0) }
    }

    /// Reads accounts.csv at `path` whole and writes its index in `folder`.
    static func build(path: String?, folder: String, number: Int, hash: SipHash) throws -> AccountsIndex {
        let log = RejectLog()
        let identity = path.flatMap(FileSystem.identity)
        let rows = try path.map { try AccountLinkReader.read(path: $0, rejects: log) } ?? []
        let files = paths(folder, number: number)
        let writer = try StateItems.Writer(path: files.rows, sums: BlockSums())
        var records: [ItemRecord] = []
        records.reserveCapacity(rows.count * 2)
        for row in rows {
            let offset = UInt64(try writer.append(encoded: try CompactCoder.encode(row), file: 0, line: row.source.line))
            records.append(ItemRecord(key: Key.account(row.accountID, hash), offset: offset))
            if !row.originalTransactionID.isEmpty {
                records.append(ItemRecord(key: Key.original(row.originalTransactionID, hash), offset: offset))
            }
            if let token = row.appAccountToken { records.append(ItemRecord(key: Key.token(token, hash), offset: offset)) }
        }
        let rowsSums = try writer.finish()
        var runs = [records]
        records = []
        let indexSums = try SortedWriting.write(runs: &runs, to: files.index)
        var index = AccountsIndex(
            path: path, identity: identity, rejects: log.tally, number: number, rowsSums: rowsSums, indexSums: indexSums,
            crc: try path.map(Self.crc) ?? 0)
        // Written while it was read: its rows may be of other bytes than those summed; the next
        // answer builds the index again.
        if path.flatMap(FileSystem.identity) != identity { index.crc = 0 }
        return index
    }

    /// The keys rows are found under (apart from the App Store lines' keys: an account id is
    /// not a token).
    enum Key {
        static func account(_ id: String, _ hash: SipHash) -> UInt64 { of("A", id, hash) }
        static func original(_ id: String, _ hash: SipHash) -> UInt64 { of("O", id, hash) }
        static func token(_ token: String, _ hash: SipHash) -> UInt64 { of("T", token, hash) }

        private static func of(_ kind: String, _ text: String, _ hash: SipHash) -> UInt64 {
            var bytes = Array((kind + text).utf8)
            return bytes.withUnsafeMutableBytes { hash.hash64(UnsafeRawBufferPointer($0)) }
        }
    }

    /// The index's rows, read in place.
    struct Lookup {
        let rows: StateItems.Reader
        let index: SortedRecords<ItemRecord>
        let hash: SipHash

        init(_ accounts: AccountsIndex, folder: String, hash: SipHash) throws {
            let files = AccountsIndex.paths(folder, number: accounts.number)
            rows = try StateItems.Reader(path: files.rows, sums: accounts.rowsSums)
            index = try SortedRecords(path: files.index, sums: accounts.indexSums)
            self.hash = hash
        }

        /// The rows of `accounts`, of the original transactions `originals` and of the tokens
        /// `tokens`, in file order: every row that decides who holds a transaction among them.
        func rows(accounts: Set<String>, originals: Set<String>, tokens: Set<String>) throws -> [AccountLinkRow] {
            let keys =
                accounts.map { Key.account($0, hash) } + originals.map { Key.original($0, hash) }
                + tokens.map { Key.token($0, hash) }
            var offsets = Set<UInt64>()
            for key in keys {
                for record in try index.records(key) { offsets.insert(record.offset) }
            }
            // A key of 64 bits may be another's: only rows that name what was asked for are given.
            return try offsets.sorted().map { try row(at: $0) }.filter { row in
                accounts.contains(row.accountID) || originals.contains(row.originalTransactionID)
                    || row.appAccountToken.map(tokens.contains) == true
            }
        }

        /// Every key the lines of transactions `account` holds are found under: its original
        /// transaction ids and tokens in accounts.csv, and its id as a token.
        func keys(of account: String) throws -> [UInt64] {
            var keys = [StateKeys.token(account, hash)]
            for row in try rows(accounts: [account], originals: [], tokens: []) {
                if !row.originalTransactionID.isEmpty { keys.append(StateKeys.original(row.originalTransactionID, hash)) }
                if let token = row.appAccountToken { keys.append(StateKeys.token(token, hash)) }
            }
            return keys
        }

        private func row(at offset: UInt64) throws -> AccountLinkRow {
            let payload = try rows.record(at: Int(offset)).payload
            do {
                return try CompactCoder.decode(AccountLinkRow.self, from: payload)
            } catch {
                throw StateDamageError(what: "a row of accounts.csv's index cannot be read (\(error))")
            }
        }
    }
}
