import Support

/// Finds named columns in a small CSV's header row (accounts, products, rates), matching
/// names without regard to case or surrounding spaces.
struct HeaderColumns {
    private var indexByName: [String: Int] = [:]
    let names: [String]

    /// How every input compares header names: without regard to case or surrounding spaces.
    static func normalize(_ name: String) -> String { name.trimmingSpaces.lowercased() }

    init(_ header: [String]) {
        names = header
        for (index, name) in header.enumerated() {
            let key = HeaderColumns.normalize(name)
            if indexByName[key] == nil { indexByName[key] = index }
        }
    }

    /// A name that appears more than once, compared as header names are.
    func repeated(_ name: String) -> Bool {
        let key = HeaderColumns.normalize(name)
        return names.filter { HeaderColumns.normalize($0) == key }.count > 1
    }

    /// The column called `name`, compared as header names are (case and outer spaces aside).
    func index(_ name: String) -> Int? { indexByName[HeaderColumns.normalize(name)] }

    func require(_ name: String, file: String, purpose: String) throws(SmallFileError) -> Int {
        if repeated(name) { throw .repeatedColumn(file: file, column: name) }
        guard let index = index(name) else {
            throw .missingColumn(file: file, column: name, present: names, purpose: purpose)
        }
        return index
    }
}

/// A small input file that cannot be read at all.
enum SmallFileError: DiagnosticError, Sendable, Hashable {
    case missingColumn(file: String, column: String, present: [String], purpose: String)
    case empty(file: String, purpose: String)
    case repeatedColumn(file: String, column: String)

    package var diagnostic: Diagnostic {
        switch self {
        case .missingColumn(let file, let column, let present, let purpose):
            Diagnostic(
                "no '\(column)' column (header has: \(present.joined(separator: ", "))); \(purpose)", file: file, line: 1)
        case .repeatedColumn(let file, let column):
            Diagnostic("the header names '\(column)' twice; which column to read is not clear", file: file, line: 1)
        case .empty(let file, let purpose):
            Diagnostic("the file is empty; \(purpose)", file: file, line: 1)
        }
    }
}

/// Reads a small CSV whose first record is a header: `body` gets the header columns and each
/// data record, and throws `SmallFileError.empty` when there is no header at all.
func readSmallCSV(
    path: String, purpose: String, _ body: (HeaderColumns, CSVRecord) throws -> Void,
    header onHeader: (HeaderColumns) throws -> Void = { _ in }
) throws {
    var columns: HeaderColumns?
    try CSVReader.read(path: path) { record in
        guard let columns else {
            let header = HeaderColumns(record.strings)
            try onHeader(header)
            columns = header
            return
        }
        try body(columns, record)
    }
    if columns == nil { throw SmallFileError.empty(file: path, purpose: purpose) }
}
