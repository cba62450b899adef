/// Everything the commands that read received data ask of a store (`people`, `gdpr-export`,
/// `erase`, `compare --store`, `compare --everyone`, `explain --store`): one existential that
/// `StoreAccess.open` returns, so no command knows which store it has. `HealthStore` answers it
/// with SQLite; `PostgresStore` with PostgreSQL, which holds received bodies only (no imports:
/// its `imports` are empty and its `StoredDays` have nothing to replay).
protocol PersonStore: PeopleListing, PersonErasing, PersonExportStore, StoredBodies, EveryonesSides, StoredDays {
    /// The person's imports (finished or not), oldest first.
    func imports(person: String) throws -> [StoredImport]
}

extension HealthStore: PersonStore {}

extension PostgresStore: PersonStore {
    func imports(person: String) throws -> [StoredImport] { [] }
}

/// The PostgreSQL store keeps no imports: no records to replay and no day values of its own.
extension PostgresStore: StoredDays {
    func replayRecords(person: String, hae: Bool, day: Int, into sink: SampleSink) throws -> Int { 0 }
    func dayValues(person: String, date: String) throws -> [String: OutputField.Scalar] { [:] }
    func forEachSideDayValue(person: String, hae: Bool, _ body: (StoredDayValue) throws -> Void) throws {}
}
