import Attribution
import Support

/// `allocation.csv`: what became of the FOCUS bill.
///
/// By the day a charge period starts, service, charge category and usage category: allocated
/// over usage rows, or unallocated and why. Only the header when the data has no bill.
enum AllocationFile {
    static let file = OutputFile(
        "allocation.csv",
        [
            ("day", .date), ("service_name", .text), ("charge_category", .text), ("category", .text), ("outcome", .text),
            ("reason", .text), ("currency", .text), ("pool_rows", .count), ("cost", .money), ("usage_rows", .count),
        ], addedIn: "0.10.0")

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/" + Self.file.name, header: Self.file.header)
        for line in figures.allocation?.lines ?? [] {
            file.date(CivilDate(dayNumber: line.day))
            file.text(line.serviceName)
            file.text(line.chargeCategory)
            file.text(line.category)
            file.text(line.allocated ? "allocated" : "unallocated")
            file.text(line.reason)
            file.text(line.currency.description)
            file.integer(line.poolRows)
            file.money(line.cost)
            file.integer(line.usageRows)
            try file.endRow()
        }
        try file.commit()
    }
}
