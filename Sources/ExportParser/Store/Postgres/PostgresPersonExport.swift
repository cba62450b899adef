/// `gdpr-export` on PostgreSQL: the person's rows of one repeatable-read snapshot (one moment of
/// the store, even while receivers write). The store holds received bodies only, so the kind
/// `received_bodies` and `fleet_verdicts` have the person's rows and every other kind none; the files of those kinds
/// are still written (a header and no row), so an export's files are the same list whatever the
/// store.
extension PostgresStore: PersonExportStore {
    func exporting<T>(person: String, _ body: (PostgresPersonExport) throws -> T) throws -> T {
        try transaction(readOnly: true) { db in try body(PostgresPersonExport(store: self, db: db, person: person)) }
    }
}

/// `PersonExportReading` inside `PostgresStore.exporting`'s transaction.
struct PostgresPersonExport: PersonExportReading {
    let store: PostgresStore
    let db: PostgresConnection
    let person: String

    /// The query of each kind the store holds, its columns those of the kind (`ExportKinds`), in
    /// order: the SQLite store's values as PostgreSQL gives them (the time received and the
    /// dates as the same text, the body on one line). `$1` is the person, `$2` the last id read:
    /// the rows come a page at a time in id order, so memory does not grow with the person's data.
    static let queries: [String: String] = [
        ExportKinds.receivedBodies.name: """
        SELECT id, endpoint, body_sha256, bytes, \(PostgresStore.receivedAtText), \(PostgresStore.dateText("first_date")),
            \(PostgresStore.dateText("last_date")), translate(convert_from(body, 'UTF8'), E'\\r\\n', '  ')
        FROM received_bodies WHERE person = $1 AND id > $2 ORDER BY id LIMIT \(pageRows)
        """,
        // One row a person at most, so one page; its JSON texts were written compact (no line
        // end) by the worker, as the SQLite store holds them.
        ExportKinds.fleetVerdicts.name: """
        SELECT status, failing_fields, reason, person_json, mode, days, monitor, until_date, shard, from_date, time_zone,
            tolerances_sha256, judged_date, judged_zone, run_id, tool_version, checked_at, written_at
        FROM fleet_verdicts WHERE person = $1 AND $2::bigint >= 0
        """,
    ]

    /// The rows of a page; a shorter page is the last.
    static let pageRows = 64

    func holdsPerson() throws -> Bool { try store.holds(db, person: person) }
    func schemaVersion() throws -> Int { try store.schemaVersion(db) }
    func rows(of kind: ExportKind) throws -> PostgresExportKindRows {
        PostgresExportKindRows(db: db, query: Self.queries[kind.name], person: person)
    }
}

/// `ExportKindRows` over a kind's query, read a page at a time (keyset: the rows after the last
/// id read, column 0, until a page comes back short); a kind without a query has no rows.
final class PostgresExportKindRows: ExportKindRows {
    private let db: PostgresConnection
    private let query: String?
    private let person: String
    private var page: PostgresResult?
    private var row = -1
    private var lastID: Int64 = 0
    private var finished = false
    /// The page held is the last (shorter than a full page): a kind without ids, such as
    /// `fleet_verdicts`, is read in one page and never asked again.
    private var lastPage = false

    init(db: PostgresConnection, query: String?, person: String) {
        self.db = db
        self.query = query
        self.person = person
    }

    func next() throws -> Bool {
        guard let query, !finished else { return false }
        if let page, row + 1 < page.rows {
            row += 1
            lastID = page.int(row, 0)
            return true
        }
        guard !lastPage else {
            finished = true
            page = nil
            return false
        }
        let fetched = try db.run(query, [.text(person), .int(lastID)])
        lastPage = fetched.rows < PostgresPersonExport.pageRows
        guard fetched.rows > 0 else {
            finished = true
            page = nil
            return false
        }
        page = fetched
        row = 0
        lastID = fetched.int(0, 0)
        return true
    }

    func rewind() {
        page = nil
        row = -1
        lastID = 0
        finished = false
        lastPage = false
    }

    func type(_ i: Int32) -> ExportCellType {
        guard let page, !page.isNull(row, i) else { return .null }
        return page.type(i)
    }
    func int(_ i: Int32) -> Int64 { page?.int(row, i) ?? 0 }
    func real(_ i: Int32) -> Double { page?.real(row, i) ?? 0 }
    func textBytes(_ i: Int32) -> (UnsafePointer<UInt8>?, Int) { page?.textBytes(row, i) ?? (nil, 0) }
}
