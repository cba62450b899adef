import CSQLite

/// The SQL function `export_id(space, id)`: a row id of the store as the export numbers it,
/// 1, 2, … in id order among the person's own rows of that table. The store's ids count every
/// person's rows, so they told how many rows other people have (issue 23); the export's are
/// the person's alone, and every file that points to a row uses the same number.
///
/// Each space keeps a cursor over the person's ids in order (`SELECT id … ORDER BY id`), walked
/// forward to the id asked for: a kind's own ids come in order (each query is ordered by them),
/// so numbering a table costs one extra pass over its ids, in constant memory. An id below the
/// last one asked for starts the cursor again: `import_id` in other kinds comes in any order, but
/// a person has few imports.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): a SQLite user function: its
/// state is handed to `sqlite3_create_function_v2` retained (`Unmanaged.passRetained`) and released
/// by the destructor SQLite calls when the function is replaced or the connection closes, so every
/// call finds it alive; argument values are read only during the call.
final class ExportIDFunction {
    enum Space: Int32, CaseIterable {
        case imports, sources, devices, samples, correlations, workouts, extraItems

        var table: String {
            switch self {
            case .imports: return "imports"
            case .sources: return "sources"
            case .devices: return "devices"
            case .samples: return "sample_records"
            case .correlations: return "correlations"
            case .workouts: return "workouts"
            case .extraItems: return "extra_items"
            }
        }
    }

    static let name = "export_id"

    /// `export_id(space, expr)` in a kind's SQL.
    static func sql(_ space: Space, _ expression: String) -> String { "\(name)(\(space.rawValue), \(expression))" }

    private final class Cursor {
        let statement: Statement
        var lastID: Int64 = .min
        var number: Int64 = 0
        init(_ statement: Statement) { self.statement = statement }

        func number(of id: Int64) throws -> Int64? {
            if id < lastID {
                statement.reset()
                lastID = .min
                number = 0
            }
            while lastID < id {
                guard try statement.step() else {
                    lastID = .max
                    return nil
                }
                lastID = statement.int(0)
                number += 1
            }
            return lastID == id ? number : nil
        }
    }

    private let cursors: [Cursor]

    private init(_ db: SQLiteConnection, person: String) throws {
        cursors = try Space.allCases.map { space in
            let s = try db.prepare("SELECT id FROM \(space.table) WHERE person = ?1 ORDER BY id")
            s.bind(1, person)
            return Cursor(s)
        }
    }

    /// Registers the function for `person` on `db`; it lives as long as the connection holds it
    /// (a later registration replaces it).
    static func register(_ db: SQLiteConnection, person: String) throws {
        let state = try ExportIDFunction(db, person: person)
        let rc = sqlite3_create_function_v2(
            db.handle, name, 2, SQLITE_UTF8, Unmanaged.passRetained(state).toOpaque(),
            { context, _, arguments in
                guard let context, let arguments, let spaceValue = arguments[0], let idValue = arguments[1] else { return }
                let state = Unmanaged<ExportIDFunction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                let space = Int(sqlite3_value_int(spaceValue))
                guard sqlite3_value_type(idValue) != SQLITE_NULL, state.cursors.indices.contains(space) else {
                    sqlite3_result_null(context)
                    return
                }
                do {
                    if let n = try state.cursors[space].number(of: sqlite3_value_int64(idValue)) {
                        sqlite3_result_int64(context, n)
                    } else {
                        sqlite3_result_null(context)
                    }
                } catch {
                    sqlite3_result_error(context, "export_id: \(error)", -1)
                }
            }, nil, nil,
            { pointer in
                if let pointer { Unmanaged<ExportIDFunction>.fromOpaque(pointer).release() }
            })
        guard rc == SQLITE_OK else { throw db.error("cannot register \(name)", rc) }
    }

    /// Removes the function: SQLite then releases its state, whose statements hold the
    /// connection (left registered, neither would ever be freed).
    static func unregister(_ db: SQLiteConnection) {
        sqlite3_create_function_v2(db.handle, name, 2, SQLITE_UTF8, nil, nil, nil, nil, nil)
    }
}
