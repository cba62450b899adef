/// The app POSTs a date's payload again as the day fills (observer, background refresh, the
/// 7-day re-upload), so payload JSON a backend keeps holds several bodies per date. Per date the
/// body with the latest `device_sync_timestamp` is that date (ties: the later in the input: a
/// later file of a folder, a later line or array member); the others are counted as superseded
/// (docs/compare.md, "Several syncs of a date"). A timestamp that is missing or not ISO 8601
/// counts as earlier than any.
struct LatestSyncs {
    private var chosen: [String: ComparableDay] = [:]
    /// Earlier syncs of a date that a later one replaced.
    private(set) var superseded = 0

    /// Takes the next payload in input order.
    mutating func add(_ day: ComparableDay) {
        guard let current = chosen[day.date] else {
            chosen[day.date] = day
            return
        }
        superseded += 1
        let old = current.deviceSync?.seconds ?? .min, new = day.deviceSync?.seconds ?? .min
        if new >= old { chosen[day.date] = day }
    }

    /// The chosen payload of each date, in date order.
    var days: [ComparableDay] { chosen.values.sorted { $0.date < $1.date } }
}
