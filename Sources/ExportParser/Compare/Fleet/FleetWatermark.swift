/// What a person's data in the store were when a fleet verdict was checked: the highest row id
/// and the number of rows of their received bodies and of their finished imports, read in one
/// read transaction before the check reads the data (`FleetVerdicts.watermark`). Any body or
/// import committed later raises an id or a count (and an erased one lowers a count), so the
/// verdict is stale exactly when the store's watermark now differs from the stored one: no
/// clock of any machine is compared (a body's `received_at` is taken before its check, an
/// import's `finished_at` is rounded to the second and written before the import commits).
struct FleetWatermark: Sendable, Equatable {
    var bodiesMaxID: Int64 = 0
    var bodies: Int64 = 0
    var importsMaxID: Int64 = 0
    var imports: Int64 = 0
}
