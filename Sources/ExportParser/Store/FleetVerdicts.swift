/// What `compare --everyone` asks of a store for its verdicts (docs/compare.md, "Shards"): each
/// worker writes its people's verdicts as it finishes them; `--report` reads them all back,
/// with who has data newer than the verdict. `FleetVerdictTable` answers in the SQLite store;
/// another store (the PostgreSQL one of the fleet) answers with a table of its own.
protocol FleetVerdicts: Sendable {
    /// Writes one person's verdict, replacing the person's earlier one, in a transaction of its
    /// own: a worker stopped halfway keeps the people it finished.
    func write(_ verdict: FleetVerdict) throws
    /// Every stored verdict, by person.
    func all() throws -> [FleetVerdict]
    /// The person's `FleetWatermark` now, read in one read transaction: a worker reads it
    /// before the check reads the person's data and stores it with the verdict.
    func watermark(person: String) throws -> FleetWatermark
    /// The people whose watermark now differs from their verdict's (a body or an import
    /// committed, or erased, since the check read their data): their verdicts are stale.
    func changedSinceChecked() throws -> Set<String>
}
