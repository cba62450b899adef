/// The correlation tables of one import: `correlations` (food, blood pressure), their metadata
/// and their members (which are top-level samples too).
final class CorrelationRows {
    private let rows: StoreRows
    private let names: StoreNames
    private let insertCorrelation: Statement
    private let insertCorrelationMetadata: Statement
    private let insertCorrelationMember: Statement
    /// Where a member's metadata object is built, reused member after member
    /// (`JSONText.appendObject`: the bytes of `JSONText.object`, without making the string) (2.5 % of the writer thread's instructions on
    /// a 40 MB export with food correlations, callgrind).
    private let json = ExportBytes(capacity: 1024)

    init(rows: StoreRows, names: StoreNames) throws {
        self.rows = rows
        self.names = names
        let db = rows.db
        insertCorrelation = try db.prepare(
            """
            INSERT OR IGNORE INTO correlations (person, import_id, type, source_name, source_version, device_id,
              created_at, created_epoch, start_at, start_epoch, end_at, end_epoch)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """)
        insertCorrelationMetadata = try db.prepare("INSERT INTO correlation_metadata (correlation_id, key, value) VALUES (?1, ?2, ?3)")
        insertCorrelationMember = try db.prepare(
            """
            INSERT INTO correlation_members (correlation_id, position, type, source_name, source_version, device_id, unit, value,
              value_text, created_at, created_epoch, start_at, start_epoch, end_at, end_epoch, metadata_json)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
            """)
        insertCorrelation.bind(1, rows.person)
        insertCorrelation.bind(2, rows.importID)
    }

    func write(_ c: Correlation) throws {
        let st = insertCorrelation
        st.bind(3, c.type)
        st.bind(4, c.source)
        st.bind(5, c.sourceVersion)
        st.bind(6, try names.deviceID(c.device))
        st.bindInstant(7, c.created)
        st.bindInstant(9, c.start)
        st.bindInstant(11, c.end)
        guard try rows.insert(st) else { return }
        rows.added("correlations")
        let id = rows.db.lastInsertRowID
        insertCorrelationMetadata.bind(1, id)
        for m in c.metadata {
            insertCorrelationMetadata.bind(2, m.key)
            insertCorrelationMetadata.bind(3, m.value)
            _ = try rows.insert(insertCorrelationMetadata)
        }
        rows.added("correlation_metadata", c.metadata.count)
        let mt = insertCorrelationMember
        mt.bind(1, id)
        for (i, s) in c.members.enumerated() {
            mt.bind(2, i)
            mt.bind(3, s.type)
            mt.bind(4, s.source)
            mt.bind(5, s.sourceVersion)
            mt.bind(6, try names.deviceID(s.device))
            mt.bind(7, s.unit)
            mt.bind(8, s.value)
            mt.bind(9, s.value == nil ? s.valueText : nil)
            mt.bindInstant(10, s.created)
            mt.bindInstant(12, s.start)
            mt.bindInstant(14, s.end)
            if s.metadata.isEmpty {
                mt.bind(16, nil as String?)
            } else {
                JSONText.appendObject(s.metadata, to: json)
                mt.bindText(16, json)
            }
            _ = try rows.insert(mt)
        }
        rows.added("correlation_members", c.members.count)
    }
}
