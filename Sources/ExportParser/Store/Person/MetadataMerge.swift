/// Where a kind's per-row metadata lives: a key/value table with the owning row's id, in the
/// order its entries were written (`sample_metadata`: `sample_id`, `position`).
struct MetadataTable {
    let table: String
    let ownerColumn: String
    let orderColumn: String
}

/// A row's metadata as a JSON object (`{"key":"value",…}`, `{}` for none), read by walking the
/// metadata table in owner order beside the kind's own query, which goes in the same order.
///
/// Why not a subquery per row: a sample row's `json_group_object` subquery was the biggest
/// single cost of exporting samples (about a third of SQLite's time per row), and a zip runs
/// the samples' query twice. Walking the table once per pass costs one step per entry. The walk
/// covers every person's entries (the table has no person column); entries of rows the query
/// does not return are passed over.
final class MetadataMerge {
    private let statement: Statement
    /// The owner id of the entry the cursor stands on; nil once the table is walked.
    private var current: Int64?

    init(_ source: MetadataTable, db: SQLiteConnection) throws {
        statement = try db.prepare(
            "SELECT \(source.ownerColumn), key, value FROM \(source.table) ORDER BY \(source.ownerColumn), \(source.orderColumn)")
        try advance()
    }

    /// Writes the entries of `owner` as a JSON object. Owners must come in ascending order.
    func object(of owner: Int64, into out: ExportBytes) throws {
        while let id = current, id < owner { try advance() }
        out.append(0x7B)
        var first = true
        while current == owner {
            if !first { out.append(0x2C) }
            first = false
            let (key, keyCount) = statement.textBytes(1)
            out.appendJSONString(key, keyCount)
            out.append(0x3A)
            let (value, valueCount) = statement.textBytes(2)
            out.appendJSONString(value, valueCount)
            try advance()
        }
        out.append(0x7D)
    }

    private func advance() throws {
        current = try statement.step() ? statement.int(0) : nil
    }
}
