/// Makes a database table fit what this version writes, without ever losing data: a missing
/// table is created, a column a later version added is added (`ALTER TABLE ... ADD COLUMN`);
/// a column of another type, or one this version does not know, is an error naming it.
enum TableShape {
    /// The columns added, by name.
    static func prepare(_ table: OutputTable, in database: any PublishDatabase) throws -> [String] {
        let wanted = table.tableColumns
        guard let existing = try database.columns(of: table.table) else {
            try database.create(table.table, columns: wanted)
            return []
        }
        var types: [String: String] = [:]
        for column in existing { types[column.name] = column.type }
        for column in existing where !wanted.contains(where: { $0.name == column.name }) {
            throw PublishError(
                "table \(table.table) has a column \(column.name) that this version of refund-cost does not write "
                    + "(a later version's, or one added by hand): publish with the version that added it, "
                    + "or drop the column if nothing reads it")
        }
        var added: [String] = []
        for column in wanted {
            guard let type = types[column.name] else {
                try database.addColumn(column, to: table.table)
                added.append(column.name)
                continue
            }
            let expected = database.typeName(column.kind)
            guard type.lowercased() == expected.lowercased() else {
                throw PublishError(
                    "column \(column.name) of table \(table.table) is \(type), but \(table.file) holds it as \(expected): "
                        + "the table was made by something else; give it another name or drop it, and publish again")
            }
        }
        return added
    }
}
