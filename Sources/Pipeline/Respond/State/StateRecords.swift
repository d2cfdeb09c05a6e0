import Ingest
import Support

/// Where one App Store line lies in the state's items file, under one of its keys (an original
/// transaction id, or an `appAccountToken`, hashed): what gathers an account's lines.
struct ItemRecord: FixedRecord, Codable {
    static let size = 16
    var key: UInt64
    var offset: UInt64

    init(key: UInt64, offset: UInt64) {
        self.key = key
        self.offset = offset
    }

    init(loading bytes: UnsafeRawPointer) {
        key = bytes.loadUnaligned(as: UInt64.self)
        offset = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    }

    func store(to bytes: UnsafeMutableRawPointer) {
        bytes.storeBytes(of: key, as: UInt64.self)
        bytes.storeBytes(of: offset, toByteOffset: 8, as: UInt64.self)
    }

    static func < (a: ItemRecord, b: ItemRecord) -> Bool { (a.key, a.offset) < (b.key, b.offset) }
}

/// One accepted cost row as an answer needs it: its account (hashed, with 64 more bits that
/// tell apart two accounts whose key collides), its time, its cost in the report currency (the
/// order credit rows of one time are settled in), for a row that draws credits its quantity,
/// and the cost file it came from (the state's number for it), so that a file read again
/// takes its own rows out.
struct UsageRecord: FixedRecord, Codable {
    static let size = 48
    /// What marks a row that draws no credits.
    static let noCredits = Int64.min
    var key: UInt64
    var check: UInt64
    var milliseconds: Int64
    var costNanos: Int64
    var creditNanos: Int64
    var file: UInt32

    init(account: UInt128, milliseconds: Int64, costNanos: Int64, creditNanos: Int64, file: UInt32) {
        key = UInt64(truncatingIfNeeded: account >> 64)
        check = UInt64(truncatingIfNeeded: account)
        self.milliseconds = milliseconds
        self.costNanos = costNanos
        self.creditNanos = creditNanos
        self.file = file
    }

    init(loading bytes: UnsafeRawPointer) {
        key = bytes.loadUnaligned(as: UInt64.self)
        check = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        milliseconds = bytes.loadUnaligned(fromByteOffset: 16, as: Int64.self)
        costNanos = bytes.loadUnaligned(fromByteOffset: 24, as: Int64.self)
        creditNanos = bytes.loadUnaligned(fromByteOffset: 32, as: Int64.self)
        file = bytes.loadUnaligned(fromByteOffset: 40, as: UInt32.self)
    }

    func store(to bytes: UnsafeMutableRawPointer) {
        bytes.storeBytes(of: key, as: UInt64.self)
        bytes.storeBytes(of: check, toByteOffset: 8, as: UInt64.self)
        bytes.storeBytes(of: milliseconds, toByteOffset: 16, as: Int64.self)
        bytes.storeBytes(of: costNanos, toByteOffset: 24, as: Int64.self)
        bytes.storeBytes(of: creditNanos, toByteOffset: 32, as: Int64.self)
        bytes.storeBytes(of: file, toByteOffset: 40, as: UInt32.self)
        bytes.storeBytes(of: UInt32(0), toByteOffset: 44, as: UInt32.self)
    }

    var account: UInt128 { UInt128(key) << 64 | UInt128(check) }

    static func < (a: UsageRecord, b: UsageRecord) -> Bool {
        (a.key, a.check, a.milliseconds, a.costNanos, a.creditNanos, a.file) < (
            b.key, b.check, b.milliseconds, b.costNanos, b.creditNanos, b.file
        )
    }
}

/// A request id (`RequestEntry`) as one cost file's rows met it: the first row of the id
/// (claimed, so that a later row repeating it is dropped, or found in conflict, as a run
/// reading everything would), or a row dropped as a repeat of it (so that when the file that
/// claimed it is read again, the files that repeated it are too).
struct RequestIDRecord: FixedRecord, Codable {
    static let size = 16
    var key: UInt64
    /// The cost file's number above the entry's route above its content.
    var rest: UInt64

    init(_ entry: RequestEntry, file: UInt32) {
        key = entry.key
        rest = UInt64(file) << 40 | UInt64(entry.route) << 32 | UInt64(entry.content)
    }

    init(loading bytes: UnsafeRawPointer) {
        key = bytes.loadUnaligned(as: UInt64.self)
        rest = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    }

    func store(to bytes: UnsafeMutableRawPointer) {
        bytes.storeBytes(of: key, as: UInt64.self)
        bytes.storeBytes(of: rest, toByteOffset: 8, as: UInt64.self)
    }

    /// A state names at most this many files over its life (24 bits of a record).
    static let files = 1 << 24

    var file: UInt32 { UInt32(truncatingIfNeeded: rest >> 40) }

    var entry: RequestEntry {
        RequestEntry(route: UInt8(truncatingIfNeeded: rest >> 32), key: key, content: UInt32(truncatingIfNeeded: rest))
    }

    static func < (a: RequestIDRecord, b: RequestIDRecord) -> Bool { (a.key, a.rest) < (b.key, b.rest) }
}

/// The keys the state finds things by, hashed with the state's own key (drawn at random when it
/// is built, so no input can be crafted to collide).
enum StateKeys {
    /// An original transaction id, under which every line holding a transaction of it is found.
    static func original(_ id: String, _ hash: SipHash) -> UInt64 { of("o", id, hash) }
    /// An `appAccountToken`, under which every line holding a transaction with it is found.
    static func token(_ token: String, _ hash: SipHash) -> UInt64 { of("t", token, hash) }

    /// A cost row's account, 128 bits (a usage record keeps them all).
    static func account(_ bytes: UnsafeRawBufferPointer, _ hash: SipHash) -> UInt128 { hash.hash128(bytes) }

    static func account(_ id: String, _ hash: SipHash) -> UInt128 {
        var id = id
        return id.withUTF8 { hash.hash128(UnsafeRawBufferPointer($0)) }
    }

    private static func of(_ kind: String, _ text: String, _ hash: SipHash) -> UInt64 {
        var bytes = Array((kind + text).utf8)
        return bytes.withUnsafeMutableBytes { hash.hash64(UnsafeRawBufferPointer($0)) }
    }

    /// Every key an App Store line is found under: the original ids and tokens of its transactions.
    static func keys(of item: AppStoreItem, _ hash: SipHash) -> [UInt64] {
        var records: [TransactionRecord] = []
        var renewals: [RenewalRecord] = []
        switch item {
        case .notification(let decoded):
            records = (decoded.transaction.map { [$0] } ?? []) + decoded.otherTransactions
            renewals = decoded.renewal.map { [$0] } ?? []
        case .transactions(let line):
            records = line.transactions
            renewals = line.renewals
        case .rejected:
            return []
        }
        return Array(Set(keys(records, renewals, hash)))
    }

    private static func keys(_ records: [TransactionRecord], _ renewals: [RenewalRecord], _ hash: SipHash) -> [UInt64] {
        records.flatMap { record in
            [original(record.originalTransactionID, hash)] + (record.appAccountToken.map { [token($0, hash)] } ?? [])
        } + renewals.map { original($0.originalTransactionID, hash) }
    }
}
