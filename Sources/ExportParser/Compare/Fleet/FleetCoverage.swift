/// Whom a fleet report covers (docs/compare.md, "Shards"): `compare --everyone --report` builds
/// the report from the verdicts fleet workers stored, and says who of the store has none yet
/// (a shard that has not run, or a person whose first data came after it ran), in which shards
/// they fall, and whose verdict is stale (data received or imported after their check, or a
/// check made with other options than the newest verdict's). A run that checks its people
/// itself covers them all.
public struct FleetCoverage: Sendable, Equatable {
    /// People of the store without a verdict, sorted.
    public var missingPeople: [String] = []
    /// `K/N` of the shards those people fall in, N being the newest verdict's.
    public var missingShards: [String] = []
    /// People whose verdict is in the report but stale, sorted.
    public var stalePeople: [String] = []

    public var isComplete: Bool { missingPeople.isEmpty && stalePeople.isEmpty }

    public init(missingPeople: [String] = [], missingShards: [String] = [], stalePeople: [String] = []) {
        self.missingPeople = missingPeople
        self.missingShards = missingShards
        self.stalePeople = stalePeople
    }
}
