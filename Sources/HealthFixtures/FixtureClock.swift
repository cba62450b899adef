import ExportParser
import Foundation

/// Local wall time of the fixture's person: the instants the planner picks are written with the
/// offset their zone has at that instant (daylight saving included), as the Health app writes
/// them. Offsets come from the zone database through `LocalClock`, never from the machine's zone.
///
/// A traveller's clock changes zone once: from `switchAt` on, instants are in the second zone
/// (a flight west, so no local time of the travel date is skipped).
struct FixtureClock {
    let zoneName: String
    private let clock: LocalClock
    private let later: (at: Int64, name: String, clock: LocalClock)?

    init?(zoneName: String) {
        guard let zone = TimeZone(identifier: zoneName) else { return nil }
        self.zoneName = zoneName
        clock = LocalClock(zone: zone)
        later = nil
    }

    private init(_ first: FixtureClock, at: Int64, name: String, zone: TimeZone) {
        zoneName = first.zoneName
        clock = first.clock
        later = (at, name, LocalClock(zone: zone))
    }

    /// This clock, changing at 11:00 local on `day` to the first of a few zones 1–10 hours west
    /// of it. Not further: the local time after the change stays on the same date, so no record
    /// ends on an earlier local date than it starts (see docs/fixtures.md: `convert` stops on
    /// such a record).
    func travelling(westOn day: Int) -> FixtureClock {
        let at = instant(day: day, minute: 660)
        let mine = offset(at)
        for name in [
            "America/New_York", "Europe/London", "Asia/Kolkata", "Asia/Dubai", "America/Los_Angeles", "Pacific/Honolulu", "Asia/Tokyo",
            "Australia/Perth", "Europe/Athens",
        ] {
            guard let zone = TimeZone(identifier: name) else { continue }
            let west = mine - Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(at))))
            if west >= 3_600 && west <= 36_000 { return FixtureClock(self, at: at, name: name, zone: zone) }
        }
        return self
    }

    /// The IANA zone in force at `t` (the `HKTimeZone` of a record there).
    func zoneName(at t: Int64) -> String {
        if let later, t >= later.at { return later.name }
        return zoneName
    }

    /// The zone the clock ends in.
    var lastZoneName: String { later?.name ?? zoneName }

    func offset(_ t: Int64) -> Int32 {
        if let later, t >= later.at { return later.clock.zoneOffset(t) }
        return clock.zoneOffset(t)
    }

    /// The instant of a wall-clock time: `minute` minutes after local midnight of `day` (may be
    /// negative or past 1,440 for the evening before or the morning after). On a travel date,
    /// a time that in the first zone would fall after the change is read in the second.
    func instant(day: Int, minute: Int) -> Int64 {
        let first = Self.instant(day: day, minute: minute, clock)
        guard let later, first >= later.at else { return first }
        return Self.instant(day: day, minute: minute, later.clock)
    }

    private static func instant(day: Int, minute: Int, _ clock: LocalClock) -> Int64 {
        let local = Int64(day) * 86_400 + Int64(minute) * 60
        let guess = local - Int64(clock.zoneOffset(local))
        return local - Int64(clock.zoneOffset(guess))
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
