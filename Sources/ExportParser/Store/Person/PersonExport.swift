/// What `gdpr-export` asks of a store: a person's rows kind by kind (`ExportKinds`), all of one
/// moment of the store (one read transaction, even while an import writes to it), each kind's
/// rows stepped one at a time so that memory does not grow with the person's data.
///
/// A protocol so that another store (the PostgreSQL one of the fleet) answers the same question;
/// `HealthStore` answers it with SQLite (`SQLitePersonExport`).
///
/// The reading is an associated type, not an existential, so that the row loop and the encoder
/// are specialised for the store's row type (a call per cell through a witness table would not
/// be inlined).
protocol PersonExportStore {
    associatedtype Reading: PersonExportReading
    /// Runs `body` with the person's rows readable, inside one read transaction.
    func exporting<T>(person: String, _ body: (Reading) throws -> T) throws -> T
}

/// A person's rows inside `PersonExportStore.exporting`.
protocol PersonExportReading {
    associatedtype Rows: ExportKindRows
    /// Whether the store holds any row of the person.
    func holdsPerson() throws -> Bool
    /// The store's schema version, as the manifest states it.
    func schemaVersion() throws -> Int
    /// The kind's rows of the person, in the kind's order, before the first.
    func rows(of kind: ExportKind) throws -> Rows
}

/// The type of one cell of an export row.
typealias ExportCellType = Statement.ColumnType

/// One kind's rows: `next` moves onto a row (false after the last), whose cells are then read
/// by column index (the kind's columns' expressions in order; an instant takes two). The bytes
/// of `textBytes` are valid until the next `next` or `rewind`.
protocol ExportKindRows: AnyObject {
    func next() throws -> Bool
    /// Back before the first row, to read them again (a zip's second file of the kind).
    func rewind()
    func type(_ i: Int32) -> ExportCellType
    func int(_ i: Int32) -> Int64
    func real(_ i: Int32) -> Double
    func textBytes(_ i: Int32) -> (UnsafePointer<UInt8>?, Int)
}

extension HealthStore: PersonExportStore {
    /// The number function (`ExportNumberFunction`) is registered for the connection, and the
    /// row numbering (`ExportIDFunction`) inside the read transaction: its cursors read the same
    /// snapshot as the kinds' queries.
    func exporting<T>(person: String, _ body: (SQLitePersonExport) throws -> T) throws -> T {
        try ExportNumberFunction.register(db)
        defer { ExportIDFunction.unregister(db) }
        return try reading {
            try ExportIDFunction.register(db, person: person)
            return try body(SQLitePersonExport(store: self, person: person))
        }
    }
}

/// `PersonExportReading` over the SQLite store: each kind is its query (`ExportKind.sql`) with
/// the person bound as `?1`.
struct SQLitePersonExport: PersonExportReading {
    let store: HealthStore
    let person: String

    func holdsPerson() throws -> Bool { try PersonRows.holds(store.db, person: person) }
    func schemaVersion() throws -> Int { try store.schemaVersion() }
    func rows(of kind: ExportKind) throws -> SQLiteExportKindRows {
        SQLiteExportKindRows(try store.db.prepare(kind.sql), person: person)
    }
}

/// `ExportKindRows` over one prepared statement, read straight from SQLite's column buffers.
final class SQLiteExportKindRows: ExportKindRows {
    private let statement: Statement
    private let person: String

    init(_ statement: Statement, person: String) {
        self.statement = statement
        self.person = person
        statement.bind(1, person)
    }

    @inline(__always) func next() throws -> Bool { try statement.step() }
    func rewind() {
        statement.reset()
        statement.bind(1, person)
    }
    @inline(__always) func type(_ i: Int32) -> ExportCellType { statement.type(i) }
    @inline(__always) func int(_ i: Int32) -> Int64 { statement.int(i) }
    @inline(__always) func real(_ i: Int32) -> Double { statement.real(i) }
    @inline(__always) func textBytes(_ i: Int32) -> (UnsafePointer<UInt8>?, Int) { statement.textBytes(i) }
}
