import CSQLite

/// The SQL function `export_number(x)`: a REAL as the shortest text that reads back as the same
/// double, as `ExportBytes.appendDouble` writes the export's own columns. SQLite's JSON
/// functions write numbers with 15 significant digits, which loses the last digits of values
/// such as Health Auto Export's 145.83333333333334; the JSON a kind builds in SQL (a workout's
/// statistics, a correlation's members) goes through `json(export_number(x))` instead.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): a SQLite user function.
/// The argument value is read only during the call, and the result text is handed to SQLite
/// from the function's own `ExportBytes` with `SQLITE_TRANSIENT`, so SQLite copies it before
/// the buffer goes away.
enum ExportNumberFunction {
    static let name = "export_number"

    static func register(_ db: SQLiteConnection) throws {
        let rc = sqlite3_create_function_v2(
            db.handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                guard let context, let value = arguments?[0] else { return }
                guard sqlite3_value_type(value) == SQLITE_FLOAT else {
                    sqlite3_result_value(context, value)
                    return
                }
                let bytes = ExportBytes(capacity: 32)
                if bytes.appendDouble(sqlite3_value_double(value)) {
                    bytes.base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_result_text(context, $0, Int32(bytes.count), sqliteTransient)
                    }
                } else {
                    sqlite3_result_null(context)
                }
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw db.error("cannot register \(name)", rc) }
    }

    /// `x` as a JSON number inside SQLite's JSON functions (NULL stays NULL).
    static func json(_ x: String) -> String { "json(\(name)(\(x)))" }
}
