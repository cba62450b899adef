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
    /// The people with a body received or an import finished after their verdict's
    /// `checkedAt`: their verdicts are stale.
    func changedSinceChecked() throws -> Set<String>
}
