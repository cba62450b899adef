import Foundation

/// Local wall time of the fixture's person: the instants the planner picks are written with the
/// offset their zone has at that instant (daylight saving included), as the Health app writes
/// them. Offsets come from the zone database through `LocalClock`, never from the machine's zone.
struct FixtureClock {
    let zoneName: String
    private let clock: LocalClock

    init?(zoneName: String) {
        guard let zone = TimeZone(identifier: zoneName) else { return nil }
        self.zoneName = zoneName
        clock = LocalClock(zone: zone)
    }

    func offset(_ t: Int64) -> Int32 { clock.zoneOffset(t) }

    /// The instant of a wall-clock time: `minute` minutes after local midnight of `day` (may be
    /// negative or past 1,440 for the evening before or the morning after).
    func instant(day: Int, minute: Int) -> Int64 {
        let local = Int64(day) * 86_400 + Int64(minute) * 60
        let guess = local - Int64(offset(local))
        return local - Int64(offset(guess))
    }

    /// Local midnight starting `day`.
    func midnight(_ day: Int) -> Int64 { instant(day: day, minute: 0) }

    /// The local date of an instant.
    func day(_ t: Int64) -> Int { LocalClock.floorDiv(t + Int64(offset(t)), 86_400) }

    /// `2026-03-22 07:00:00 +1100`: export.xml's and HAE's layout.
    func exportText(_ t: Int64) -> String {
        let iso = CivilDate.isoTimestamp(seconds: t, offset: offset(t))
        // 2026-03-22T07:00:00+11:00 → 2026-03-22 07:00:00 +1100
        let date = iso.prefix(10), time = iso.dropFirst(11).prefix(8), off = iso.suffix(6)
        return date + " " + time + " " + off.prefix(3) + off.suffix(2)
    }

    /// The payload's form, `2026-03-22T07:00:00+11:00`.
    func iso(_ t: Int64) -> String { CivilDate.isoTimestamp(seconds: t, offset: offset(t)) }
}
