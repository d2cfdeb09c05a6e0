import Attribution
import Ingest
import Ledger
import Report
import Support

/// `report` in steps that can run on other machines (docs/contract.md, Past one machine).
///
/// 1. `snapshot`: the App Store side read and verified once, into one file;
/// 2. `partial`: the cost rows of a group of whole cost files against it, into exact totals;
/// 3. `settle`: request ids claimed in more than one partial, settled; the partials that
///    lost one are computed again with seeds;
/// 4. `merge`: every partial into every output of `report`, the same bytes.
///
/// Each step takes the options `report` takes, and refuses inputs made with others; every file
/// a step reads from another carries a MAC under the run's `secret`, and a file without it is
/// refused (docs/scaleout.md, the trust model).
package enum DistributedRun {
    /// Refused, with the message every command gives, when its rejects are beyond
    /// `--max-rejects`: a cluster never spends its partials on data the merge would refuse.
    ///
    /// With `decoded` (the files `decode` wrote for every group of App Store files), the App
    /// Store files are not read: the snapshot keeps their pieces, in file order.
    ///
    /// With more than one group of accounts, also writes each group's part of it beside it
    /// (`GroupSnapshot.path`), for partials that hold one group's ledger at a time. Returns the
    /// snapshot, the number of groups and, when the ledger was built to cut it, how many accounts
    /// hold a purchase.
    package static func snapshot(
        _ options: RunOptions, to path: String, decoded: [String]? = nil, grouping: AccountGrouping = .groups(1),
        secret: StepSecret
    ) throws -> (snapshot: LedgerSnapshot, groups: Int, accounts: Int?) {
        try StepOutput.check(path, layout: try InputLayout(root: options.data), kind: LedgerSnapshot.kind)
        let pieces = try decoded.map { paths in
            try DecodedFiles.pieces(
                paths.map { ($0, try StepFiles.readDecoded($0, secret: secret)) }, layout: try InputLayout(root: options.data),
                options: options.appStore)
        }
        let pipeline = Pipeline(options, rejects: RejectLog(keepingAll: true))
        // The ledger it was made from cuts it in groups: what the cut needs of it is taken, and
        // the ledger let go, before anything is written.
        let (snapshot, cut, accounts): (LedgerSnapshot, GroupSnapshot.Cut?, Int?) = try {
            let loaded = try pipeline.load(keepingRecords: true, decoded: pieces)
            let snapshot = try LedgerSnapshot(pipeline, loaded: loaded)
            guard grouping != .groups(1) else { return (snapshot, nil, nil) }
            let accounts = loaded.ledger.accounts.count
            let groups = grouping.groups(accounts: accounts)
            return (snapshot, groups > 1 ? GroupSnapshot.Cut(loaded.ledger, groups: groups) : nil, accounts)
        }()
        // What building the ledger held goes back before the snapshot is coded.
        FreedMemory.giveBack()
        try pipeline.refuseBeyondLimit(consequence: "No snapshot was written to \(path).")
        let sha256 = try StepFiles.write(snapshot, to: path, secret: secret)
        FreedMemory.giveBack()
        guard let cut else { return (snapshot, 1, accounts) }
        let groups = (0..<cut.groups).map { AccountGroup(group: $0, groups: cut.groups) }
        for part in groups {
            try StepOutput.requireOwnKind(GroupSnapshot.path(besides: path, group: part), kind: GroupSnapshot.kind)
        }
        for part in groups {
            try StepFiles.write(
                GroupSnapshot(snapshot, cut: cut, sha256: sha256, group: part),
                to: GroupSnapshot.path(besides: path, group: part), secret: secret)
        }
        return (snapshot, cut.groups, accounts)
    }

    /// How many groups of accounts a snapshot is cut in: a number, or as many as hold at most
    /// `accountsPerGroup` accounts each (of those holding a purchase), so the ledger a partial
    /// holds stays the same size whatever the number of accounts.
    package enum AccountGrouping: Sendable, Equatable {
        case groups(Int)
        case accountsPerGroup(Int)

        /// The most groups: a group's files are named by their number, and each is a file to ship.
        package static let most = 4096

        package func groups(accounts: Int) -> Int {
            switch self {
            case .groups(let groups): groups
            case .accountsPerGroup(let size): min(Self.most, max(1, (accounts + size - 1) / max(1, size)))
            }
        }
    }

    /// Step 0, on as many machines as there are groups: a group of whole App Store files decoded
    /// and verified, into `path` (its rejects go to the snapshot, which counts them).
    ///
    /// With `piece`, it decodes that piece of an App Store file `split` cut (`files` is then
    /// empty): its lines alone, so one large file is decoded by several machines.
    package static func decode(
        _ options: RunOptions, files: [String], piece: PieceWanted? = nil, to path: String, secret: StepSecret
    ) throws -> DecodedFiles {
        try StepOutput.check(path, layout: try InputLayout(root: options.data), kind: DecodedFiles.kind)
        let decoded: DecodedFiles
        if let piece {
            let (split, digest) = try StepFiles.readSplit(piece.split, secret: secret)
            try split.requirePiece(piece.index, splitPath: piece.split)
            decoded = try DecodedFiles(
                data: options.data, split: split, digest: digest, piece: piece.index, options: options.appStore,
                threads: options.threads)
        } else {
            decoded = try DecodedFiles(data: options.data, paths: files, options: options.appStore, threads: options.threads)
        }
        try StepFiles.write(decoded, to: path, secret: secret)
        return decoded
    }

    /// Writes the App Store files the groups of step 0 must cover to `path` (`decode --list`),
    /// a line each: its size, a tab, its path.
    package static func listAppStoreFiles(_ options: RunOptions, to path: String) throws {
        try StepOutput.check(path, layout: try InputLayout(root: options.data))
        // Over an earlier list only (lines of a size, a tab and a path), never over another file.
        if FileSystem.kind(path) != .missing {
            let earlier = try? FileDescriptor.openRegularForReading(path).readAll(limit: 64 << 20)
            let isList = earlier.flatMap { String(validating: $0, as: UTF8.self) }.map { text in
                text.split(separator: "\n").allSatisfy { line in
                    let fields = line.split(separator: "\t", maxSplits: 1)
                    return fields.count == 2 && !fields[0].isEmpty && fields[0].allSatisfy { $0.isASCII && $0.isNumber }
                }
            }
            guard isList == true else {
                throw PackedFileError(
                    path: path,
                    problem:
                        "it is not a list of App Store files, and decode --list would write one over it: give it a path of its own"
                )
            }
        }
        let file = try AtomicFileWriter(path: path)
        try file.append(try appStoreFiles(options).map { "\($0.bytes)\t\($0.path)\n" }.joined())
        try file.commit()
    }

    /// The App Store files the groups of step 0 must cover, in the layout's order, with their sizes.
    package static func appStoreFiles(_ options: RunOptions) throws -> [(path: String, bytes: Int)] {
        let layout = try InputLayout(root: options.data)
        return (layout.notificationFiles + layout.transactionFiles).map { ($0, FileSystem.fileSize($0) ?? 0) }
    }

    /// The partial of `files` (paths as the snapshot lists them, or names inside `costs/`), with
    /// the seeds `settle` wrote for it (one file for each partition of the request ids that
    /// settled any).
    ///
    /// With `accountGroups` above 1, the whole snapshot is not read: the group snapshots beside
    /// it are, one at a time. The files are read once, with the first group's ledger: its
    /// accounts' rows are attributed, the others' set aside on disk by group and attributed
    /// against their group's ledger in turn; every group's totals are moved to the whole
    /// ledger's indices: the
    /// same totals as without groups (category ids aside, which every merge maps by name), so
    /// the merge writes the same report, byte for byte.
    ///
    /// With `piece`, it reads that piece of a file `split` cut (`files` is then empty): its
    /// bytes alone, with the file's size and checksum from the split.
    package static func partial(
        _ options: RunOptions, snapshot path: String, files: [String], piece: PieceWanted? = nil, seeds seedsPaths: [String],
        accountGroups: Int = 1, route: Bool = false, to out: String, secret: StepSecret,
        progress: @escaping @Sendable (ReportProgress) -> Void = { _ in }
    ) throws -> CostPartial {
        let rows =
            route
            ? (0..<accountGroups).map { group in
                (RoutedRows.path(of: out, group: AccountGroup(group: group, groups: accountGroups)), RoutedRows.kind)
            } : []
        try StepOutput.check(
            out, layout: try InputLayout(root: options.data), kind: CostPartial.kind,
            beside: [(PartialClaims.path(of: out), PartialClaims.kind)] + rows)
        let wanted = PartialWanted(files: files, piece: piece, seeds: seedsPaths)
        if route {
            guard accountGroups > 1 else { throw RoutingError.needsGroups }
            return try routingPartial(
                options, snapshot: path, wanted: wanted, groups: accountGroups, to: out, secret: secret, progress: progress)
        }
        if accountGroups > 1 {
            return try groupedPartial(
                options, snapshot: path, wanted: wanted, groups: accountGroups, to: out, secret: secret, progress: progress)
        }
        var (snapshot, sha256) = try StepFiles.readSnapshot(path, secret: secret)
        try snapshot.check(options.appStore, data: options.data)
        let (ordered, piece, seeds) = try partialInputs(snapshot, sha256: sha256, wanted: wanted, secret: secret)
        // Its own rows against the limit, with the snapshot's; the merge adds up every partial's.
        let pipeline = Pipeline(options)
        for reject in snapshot.rejects { try pipeline.rejects.record(reject) }
        let loaded = try snapshot.loadHandingOverRecords()
        let partial = try CostPartial.run(
            pipeline, loaded, files: ordered, piece: piece, settings: PartialSettings(snapshot: sha256, options: options),
            requestKey: snapshot.requestKey, seeds: seeds.map(\.entry), recordClaims: true, progress: progress)
        try pipeline.refuseBeyondLimit(consequence: "No partial was written to \(out).")
        try StepFiles.write(partial, seeds: seeds, to: out, secret: secret)
        return partial
    }

    /// A partial against the group snapshots beside `path`, one group's ledger at a time.
    private static func groupedPartial(
        _ options: RunOptions, snapshot path: String, wanted: PartialWanted, groups: Int, to out: String,
        secret: StepSecret, progress: @escaping @Sendable (ReportProgress) -> Void
    ) throws -> CostPartial {
        let pipeline = Pipeline(options)
        // The rows of the other groups' accounts, between the first group's reading and theirs.
        let spills = try UsageSpillFolder()
        defer { spills.remove() }
        var whole: (sha256: String, ordered: [String], piece: PieceToRead?, seeds: [SeededClaim], key: SipHash)?
        var joined: ParallelCostReading.Result?
        var totals = AttributionTotals.empty
        for index in 0..<groups {
            let group = AccountGroup(group: index, groups: groups)
            var part = try groupPart(besides: path, group, of: whole?.sha256, secret: secret)
            if whole == nil {
                try part.snapshot.check(options.appStore, data: options.data)
                let (ordered, piece, seeds) = try partialInputs(
                    part.snapshot, sha256: part.whole, wanted: wanted, secret: secret)
                whole = (part.whole, ordered, piece, seeds, part.snapshot.requestKey)
                for reject in part.snapshot.rejects { try pipeline.rejects.record(reject) }
                // Per transaction, only what the rows touched: never an array over every transaction.
                totals = part.emptyWholeTotals()
            }
            guard let whole else { continue }
            let loaded = try part.loadHandingOverRecords()
            var attributor = pipeline.attributor(loaded).emptyCopy()
            let groupTotals: AttributionTotals
            if index == 0 {
                // The first group's reading reads the files: it counts every row, its rejects and
                // claims, attributes its accounts' rows and sets the others' aside by group.
                attributor.accountGroup = group
                attributor.routes = try (0..<groups).map { other in
                    other == 0
                        ? nil : try UsageSpill(path: spills.path + "/group-\(other)", bufferBytes: spillBuffer(groups: groups))
                }
                let result = try pipeline.attribute(
                    loaded, with: attributor, files: whole.ordered, planned: whole.piece.map { [$0.plan] },
                    judgesHeaders: whole.piece?.judgesHeader ?? true, threads: 1,
                    registry: { RequestRegistry(hash: whole.key, seeds: whole.seeds.map(\.entry), recordsClaims: true) },
                    progress: progress)
                for spill in attributor.routes { try spill?.finish() }
                attributor.routes = []
                groupTotals = result.totals
                joined = result
            } else {
                // Every row set aside for this group is of its accounts.
                try UsageSpill.read(spills.path + "/group-\(index)") { row in try attributor.add(row) }
                groupTotals = attributor.totals
            }
            try part.add(groupTotals, localProducts: attributor.products.keys, into: &totals)
        }
        guard let whole, var reading = joined else { throw PackedFileError(path: path, problem: "no group snapshot") }
        reading.totals = totals
        let partial = CostPartial(
            settings: PartialSettings(snapshot: whole.sha256, options: options), files: whole.ordered,
            piece: whole.piece?.piece, reading: reading, seeded: whole.seeds.count)
        try pipeline.refuseBeyondLimit(consequence: "No partial was written to \(out).")
        try StepFiles.write(partial, seeds: whole.seeds, to: out, secret: secret)
        return partial
    }

    /// Group `group`'s part of the snapshot at `path`, refused unless it is of the snapshot whose
    /// content digest is `whole` (when given).
    private static func groupPart(besides path: String, _ group: AccountGroup, of whole: String?, secret: StepSecret)
        throws -> GroupSnapshot
    {
        let groupPath = GroupSnapshot.path(besides: path, group: group)
        guard FileSystem.kind(groupPath) != .missing else {
            throw PackedFileError(
                path: groupPath,
                problem:
                    "no such group snapshot: make the snapshot with --account-groups \(group.groups), or give partial the "
                    + "--account-groups the snapshot was made with (its files are \(path).group-K-of-G)")
        }
        let part = try StepFiles.readGroupSnapshot(groupPath, secret: secret)
        guard part.group == group, whole.map({ $0 == part.whole }) ?? true else {
            throw PackedFileError(
                path: groupPath,
                problem:
                    "not group \(group) of the snapshot the other groups are of: make the snapshot again with "
                    + "--account-groups \(group.groups)")
        }
        return part
    }

    /// The buffer of each group's spill while a partial sets rows aside by group: 64 KB, less
    /// when there are more than a thousand groups, so that all of them take at most 64 MB.
    static func spillBuffer(groups: Int) -> Int {
        max(4 << 10, min(64 << 10, (64 << 20) / max(1, groups)))
    }

    /// A partial that reads its files once and routes every row to its account's group.
    ///
    /// The rows of each group are written beside it (`RoutedRows`), for that group's partial
    /// (`groupPartial`) to attribute against the group's ledger. It counts, checks and claims
    /// as any partial; its totals hold none of the rows.
    private static func routingPartial(
        _ options: RunOptions, snapshot path: String, wanted: PartialWanted, groups: Int, to out: String,
        secret: StepSecret, progress: @escaping @Sendable (ReportProgress) -> Void
    ) throws -> CostPartial {
        let pipeline = Pipeline(options)
        let first = AccountGroup(group: 0, groups: groups)
        // The first group's part says what every part does of the run (layout, options, files,
        // rejects); its ledger attributes no row here.
        var part = try groupPart(besides: path, first, of: nil, secret: secret)
        try part.snapshot.check(options.appStore, data: options.data)
        let (ordered, piece, seeds) = try partialInputs(part.snapshot, sha256: part.whole, wanted: wanted, secret: secret)
        for reject in part.snapshot.rejects { try pipeline.rejects.record(reject) }
        let loaded = try part.loadHandingOverRecords()
        let spills = try UsageSpillFolder()
        defer { spills.remove() }
        var attributor = pipeline.attributor(loaded).emptyCopy()
        attributor.accountGroup = first
        attributor.routes = try (0..<groups).map {
            try UsageSpill(path: spills.path + "/group-\($0)", bufferBytes: spillBuffer(groups: groups))
        }
        let key = part.snapshot.requestKey
        var reading = try pipeline.attribute(
            loaded, with: attributor, files: ordered, planned: piece.map { [$0.plan] },
            judgesHeaders: piece?.judgesHeader ?? true, threads: 1,
            registry: { RequestRegistry(hash: key, seeds: seeds.map(\.entry), recordsClaims: true) }, progress: progress)
        for spill in attributor.routes { try spill?.finish() }
        var totals = part.emptyWholeTotals()
        try part.add(reading.totals, localProducts: attributor.products.keys, into: &totals)
        reading.totals = totals
        let partial = CostPartial(
            settings: PartialSettings(snapshot: part.whole, options: options), files: ordered, piece: piece?.piece,
            reading: reading, seeded: seeds.count, routedTo: groups)
        try pipeline.refuseBeyondLimit(consequence: "No partial was written to \(out).")
        let check = try StepFiles.write(partial, seeds: seeds, to: out, secret: secret)
        let rows = (0..<groups).map { AccountGroup(group: $0, groups: groups) }
        do {
            for group in rows {
                let head = RoutedRows.Head(partial: check, snapshot: part.whole, group: group)
                try RoutedRows.write(
                    spill: spills.path + "/group-\(group.group)", head: head, to: RoutedRows.path(of: out, group: group),
                    secret: secret)
            }
        } catch {
            // Whole or not at all: no partial is left without its rows, nor rows of an earlier one beside it.
            for path in [out, PartialClaims.path(of: out)] + rows.map({ RoutedRows.path(of: out, group: $0) }) {
                FileSystem.remove(path)
            }
            throw error
        }
        return partial
    }

    /// The partial of one group of accounts, from the rows routed to it.
    ///
    /// Every row the routing partials of `folder` set aside for the group (`P.rows-K-of-G`) is
    /// attributed against the group's part of the snapshot alone. It reads no cost file; the
    /// merge checks that it read the rows of every routing partial, as each is now.
    package static func groupPartial(
        _ options: RunOptions, snapshot path: String, group: AccountGroup, routed folder: String, to out: String,
        secret: StepSecret
    ) throws -> CostPartial {
        try StepOutput.check(
            out, layout: try InputLayout(root: options.data), kind: CostPartial.kind,
            beside: [(PartialClaims.path(of: out), PartialClaims.kind)])
        guard group.groups > 1, group.group >= 0, group.group < group.groups else {
            throw RoutingError.noSuchGroup(group)
        }
        // What can be refused is, before the group's ledger is built.
        let names = try StepFileNameError.entries(of: folder) { RoutedRows.isRows($0, of: group) }.map(\.name)
        guard !names.isEmpty else { throw RoutingError.noRows(folder, group) }
        // Not over a routing partial (its rows are beside it), wherever its rows are read from.
        let outName = String(out.split(separator: "/").last ?? "")
        let besideOut = (try? FileSystem.list(FileSystem.folder(of: out))) ?? []
        if let rows = besideOut.first(where: { $0.name.hasPrefix(outName + ".rows-") }) {
            throw PackedFileError(
                path: out,
                problem:
                    "it is a routing partial (\(Reject.printable(rows.name)) is beside it), which a group's partial must not replace: "
                    + "write the group's partial under its own name")
        }
        var part = try groupPart(besides: path, group, of: nil, secret: secret)
        try part.snapshot.check(options.appStore, data: options.data)
        let pipeline = Pipeline(options)
        let loaded = try part.loadHandingOverRecords()
        var attributor = pipeline.attributor(loaded).emptyCopy()
        var routings: [String: String] = [:]
        for name in names {
            let rowsPath = folder + "/" + name
            let head = try RoutedRows.read(rowsPath, secret: secret) { row in try attributor.add(row) }
            guard head.group == group else { throw RoutingError.otherGroup(rowsPath, head.group, group) }
            guard head.snapshot == part.whole else { throw RoutingError.otherSnapshot(rowsPath) }
            if let earlier = routings.updateValue(rowsPath, forKey: head.partial) {
                throw RoutingError.twice(earlier, rowsPath)
            }
        }
        var totals = part.emptyWholeTotals()
        try part.add(attributor.totals, localProducts: attributor.products.keys, into: &totals)
        let reading = try ParallelCostReading.Result.joined([], totals: totals, summingTotals: false)
        let partial = CostPartial(
            settings: PartialSettings(snapshot: part.whole, options: options), files: [], piece: nil, reading: reading,
            seeded: 0, routedGroup: RoutedGroup(group: group, routings: routings.keys.sorted()))
        try StepFiles.write(partial, to: out, secret: secret)
        return partial
    }

    /// What a partial is asked to read: whole files, or a piece of a split one, and its seeds.
    struct PartialWanted {
        var files: [String]
        var piece: PieceWanted?
        var seeds: [String]
    }

    /// The cost files a partial reads, in the snapshot's order (or the piece it reads of one),
    /// and the seeds it is given, checked to be its own.
    private static func partialInputs(
        _ snapshot: LedgerSnapshot, sha256: String, wanted: PartialWanted, secret: StepSecret
    ) throws -> (ordered: [String], piece: PieceToRead?, seeds: [SeededClaim]) {
        let known = Set(snapshot.layout.costFiles)
        let chosen = try wanted.files.map { file in
            if known.contains(file) { return file }
            let inside = snapshot.layout.root + "/costs/" + file
            guard known.contains(inside) else { throw PartialFilesError(file: file, known: snapshot.layout.costFiles) }
            return inside
        }
        var piece: PieceToRead?
        if let asked = wanted.piece {
            piece = try pieceToRead(asked, of: snapshot, secret: secret)
        }
        let ordered = piece.map { [$0.plan.path] } ?? snapshot.layout.costFiles.filter(Set(chosen).contains)
        try snapshot.checkCostFiles(ordered)
        if let bill = snapshot.layout.costFiles.first(where: FocusPoolFile.isPoolFile) {
            throw PoolsNeedOneProcessError(file: bill)
        }
        var seeds: [SeededClaim] = []
        var partsSeeded: [RequestPart] = []
        for seedsPath in wanted.seeds {
            let read = try StepFiles.readSeeds(seedsPath, secret: secret)
            if read.files == ordered, read.snapshot == sha256, let settled = read.piece, settled != piece?.piece {
                let this =
                    switch piece?.piece {
                    case nil: ", not the whole file"
                    case let mine? where mine.index == settled.index: " of another split of the file"
                    case let mine?: ", not \(mine.description)"
                    }
                throw PackedFileError(
                    path: seedsPath,
                    problem:
                        "these seeds were settled for the partial of \(settled.description) of \(ordered.first ?? "its file")"
                        + this + ": give this partial the seeds settle wrote beside it")
            }
            guard read.files == ordered, read.piece == piece?.piece, read.snapshot == sha256 else {
                throw PackedFileError(
                    path: seedsPath,
                    problem:
                        "these seeds were settled for another partial (of \(read.files.count) other files, another piece or "
                        + "another snapshot): give this partial the seeds settle wrote beside it")
            }
            if let other = partsSeeded.first(where: { $0 == read.part || $0.parts != read.part.parts }) {
                throw PackedFileError(
                    path: seedsPath,
                    problem:
                        "these seeds settle part \(read.part) of the request ids, and other seeds given settle part \(other): "
                        + "give each partition's seeds once, all from the same `settle --part K/N` run")
            }
            partsSeeded.append(read.part)
            seeds += read.seeds
        }
        return (ordered, piece, seeds)
    }

    /// The piece `asked` names, checked against the snapshot: a file it lists, split as it was
    /// when the snapshot was made.
    private static func pieceToRead(_ asked: PieceWanted, of snapshot: LedgerSnapshot, secret: StepSecret) throws
        -> PieceToRead
    {
        let (split, digest) = try StepFiles.readSplit(asked.split, secret: secret)
        guard snapshot.layout.costFiles.contains(split.path) else {
            if (snapshot.layout.notificationFiles + snapshot.layout.transactionFiles).contains(split.path) {
                throw PackedFileError(
                    path: asked.split,
                    problem:
                        "it splits the App Store file \(split.path), not a cost file: decode its pieces with `decode --split "
                        + "\(asked.split) --piece K` before the snapshot")
            }
            throw PartialFilesError(file: split.path, known: snapshot.layout.costFiles)
        }
        // A file changed since the snapshot is the snapshot's to make again, whatever the split.
        try snapshot.checkCostFiles([split.path])
        guard snapshot.costFiles.contains(split.identity) else {
            throw PackedFileError(
                path: asked.split,
                problem:
                    "it splits \(split.path) as it was at another time than the snapshot and now (its size, its inode, or the "
                    + "time its bytes or its inode changed, differs): split the file again")
        }
        try split.requirePiece(asked.index, splitPath: asked.split)
        return PieceToRead(
            piece: FilePiece(split: digest, index: asked.index, count: split.pieces.count),
            plan: split.plan(piece: asked.index))
    }

    /// Cuts the cost file or App Store file `file` of `data` (its path as the layout lists it,
    /// its name in `costs/`, or its path inside `data`) into `pieces` pieces at record boundaries,
    /// for partials or decodes to read apart: reads it once, holding one block.
    package static func split(data: String, file: String, pieces: Int, to out: String, secret: StepSecret) throws
        -> FileSplit
    {
        let layout = try InputLayout(root: data)
        let known = layout.costFiles + layout.notificationFiles + layout.transactionFiles
        guard let path = [file, data + "/costs/" + file, layout.root + "/" + file].first(where: known.contains) else {
            throw PartialFilesError(
                file: file, known: known, of: "--data \(data)",
                what: ("a cost file or an App Store file", "cost files and App Store files"))
        }
        if FocusPoolFile.isPoolFile(path) { throw PoolsNeedOneProcessError(file: path) }
        try StepOutput.check(out, layout: layout, kind: FileSplit.kind)
        let records: FileSplitter.Records =
            if layout.costFiles.contains(path) {
                CostFormat.isJSONLines(path) ? .whole : .csvRecords
            } else {
                try AppStoreParts.cutsAtLines(path, notifications: layout.notificationFiles.contains(path)) ? .lines : .whole
            }
        let split = try FileSplit.make(path: path, pieces: pieces, records: records)
        try StepFiles.write(split, to: out, secret: secret)
        return split
    }

    /// Settles the request ids of `part` claimed in more than one of `paths`: writes the seeds
    /// of each partial that must be computed again beside it, and returns those partials' paths
    /// with their seed files.
    ///
    /// Reads no partial, only the claims beside each (`P.claims`, refused unless they are those of
    /// `P` as it is now), one at a time, keeping those of `part` alone, so a settle of one
    /// partition of N holds about 1/N of the run's ids. When no id of `part` is claimed twice,
    /// writes the record of it (`RequestSettlement`) in `folder` (the partials'), which the
    /// merge reads instead of every claim.
    package static func settle(
        snapshot path: String, partials paths: [String], in folder: String, part: RequestPart = .whole, secret: StepSecret
    ) throws -> [(partial: String, seeds: String)] {
        guard !paths.isEmpty else { throw SettlementError.noPartials(folder) }
        // The snapshot is checked to be this run's and the partials', not decoded: their files, in
        // one folder, sort as the snapshot lists them.
        let snapshotDigest = try PackedFile.contentDigest(
            path, kind: LedgerSnapshot.kind, version: LedgerSnapshot.version, secret: secret)
        var settlement = try DuplicateSettlement()
        var identities: [(files: [String], piece: FilePiece?, snapshot: String)] = []
        var checks: [String] = []
        for (index, partialPath) in paths.enumerated() {
            let check = try PackedFile.authenticate(
                partialPath, kind: CostPartial.kind, version: CostPartial.version, secret: secret)
            let claims = try StepFiles.readClaims(of: partialPath, check: check, secret: secret)
            guard claims.snapshot == snapshotDigest else {
                throw MergeError.settingsDiffer("\(partialPath) was computed against another snapshot than \(path)")
            }
            identities.append((claims.files.map(\.file), claims.piece, claims.snapshot))
            // A group's partial read no file and claimed no id: it is computed after settling.
            guard !claims.files.isEmpty else { continue }
            try settlement.add(claims.byFile, piece: claims.piece, seeded: claims.seeded, partial: index, in: part)
            checks.append(check)
        }
        let fileOrder = identities.flatMap(\.files).sorted { $0.bytesPrecede($1) }
        var (stale, seeds) = try settlement.settle(fileOrder: fileOrder)
        if let stale = stale.first { throw SettlementError.staleSeeds(paths[stale]) }
        seeds += Array(repeating: [], count: paths.count - seeds.count)
        let record = RequestSettlement.path(in: folder, part: part)
        try StepOutput.requireOwnKind(record, kind: RequestSettlement.kind)
        // Every file it would write over is checked before it writes one.
        for (index, entries) in seeds.enumerated() where !entries.isEmpty {
            try StepOutput.requireOwnKind(part.name(paths[index], "seeds"), kind: StepFiles.seedsKind)
        }
        var again: [(String, String)] = []
        for (index, entries) in seeds.enumerated() where !entries.isEmpty {
            let seedsPath = part.name(paths[index], "seeds")
            let seeds = PartialSeeds(
                files: identities[index].files, piece: identities[index].piece, snapshot: identities[index].snapshot,
                part: part, seeds: entries)
            try StepFiles.write(seeds: seeds, to: seedsPath, secret: secret)
            again.append((paths[index], seedsPath))
        }
        if again.isEmpty {
            try StepFiles.write(
                RequestSettlement(snapshot: snapshotDigest, part: part, partials: checks.sorted()), to: record,
                secret: secret)
        } else {
            // An earlier record of this partition covers partials about to be computed again.
            FileSystem.remove(record)
        }
        return again
    }

    /// Every output of `report` from the snapshot and the partials, into `OUT/LABEL/`.
    package static func merge(
        _ options: RunOptions, snapshot path: String, partials paths: [String], settlements: [String] = [],
        secret: StepSecret
    ) -> ReportOutcome {
        ReportRun.inOutputFolder(options) { folder, rejects, started in
            var (snapshot, sha256) = try StepFiles.readSnapshot(path, secret: secret)
            try snapshot.check(options.appStore, data: options.data)
            try snapshot.checkCostFiles(snapshot.layout.costFiles, listingAgain: true)
            let loaded = try snapshot.loadHandingOverRecords()
            // The records' memory goes back before the partials' totals are read.
            FreedMemory.giveBack()
            let pipeline = Pipeline(options, rejects: rejects)
            let attributor = pipeline.attributor(loaded)
            // One partial at a time: its totals are added in and let go (sums merge in any order),
            // the rest of it (counts, rejects, files) is kept to be put in file order.
            var totals = attributor.emptyCopy().totals
            var partials: [CostPartial] = []
            var checks: [String] = []
            var settlement = try DuplicateSettlement()
            let settings = PartialSettings(snapshot: sha256, options: options)
            for (index, partialPath) in paths.enumerated() {
                var (partial, check) = try StepFiles.readPartialWithCheck(partialPath, secret: secret)
                guard partial.settings == settings else {
                    throw MergeError.settingsDiffer(
                        partial.settings.snapshot != sha256
                            ? "another snapshot"
                            : "other options (window, as-of time, grace, cost columns, cost formats, usage field, ...)")
                }
                // Without settlement records, the merge settles the claims itself (holding every id).
                if settlements.isEmpty {
                    let claims = try StepFiles.readClaims(of: partialPath, check: check, secret: secret)
                    try settlement.add(claims.byFile, piece: claims.piece, seeded: claims.seeded, partial: index, in: .whole)
                }
                try partial.moveTotals(into: &totals)
                partials.append(partial)
                checks.append(check)
            }
            // Each partial's coded content went as it was read: its memory goes back before the figures.
            FreedMemory.giveBack()
            // What is missing or read twice is said before what is claimed twice follows from it.
            try ReportMerge.checkCoverage(partials.map { ($0.files, $0.piece) }, layout: loaded.layout)
            try ReportMerge.checkRouting(partials.indices.map { (paths[$0], partials[$0], checks[$0]) })
            if settlements.isEmpty {
                let (stale, seeds) = try settlement.settle(fileOrder: snapshot.layout.costFiles)
                if let stale = stale.first { throw SettlementError.staleSeeds(paths[stale]) }
                let unsettled = seeds.reduce(0) { $0 + $1.count }
                guard unsettled == 0 else {
                    throw MergeError.unsettled(unsettled, partials: seeds.indices.filter { !seeds[$0].isEmpty }.map { paths[$0] })
                }
            } else {
                try RequestSettlement.check(
                    settlements.map { ($0, try StepFiles.readSettlement($0, secret: secret)) }, snapshot: sha256,
                    partials: partials.indices.filter { !partials[$0].files.isEmpty }.map { checks[$0] }.sorted())
            }
            for reject in snapshot.rejects { try rejects.record(reject) }
            let timings = ReportAssembly.Timings(
                started: started, appStore: Clock.monotonicSeconds() - started, costRows: 0)
            return try ReportMerge.run(
                pipeline, loaded, attributor: consume attributor, appStoreInputs: snapshot.inputs, partials: partials,
                totals: totals,
                folder: folder, warnings: loaded.warnings, timings: timings)
        }
    }
}

/// A partial asked for a file the snapshot does not list.
struct PartialFilesError: DiagnosticError {
    package var file: String
    package var known: [String]
    /// Whose cost files `known` are.
    package var of = "the snapshot"
    /// What `file` should have been, and what `known` are.
    package var what = (one: "a cost file", all: "cost files")

    package var diagnostic: Diagnostic {
        Diagnostic(
            "\(file) is not \(what.one) of \(of); its \(what.all) are: "
                + (known.isEmpty ? "none" : known.joined(separator: ", ")))
    }
}
