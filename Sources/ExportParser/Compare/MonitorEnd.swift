import Foundation

/// The last date `compare --monitor N` judges (docs/compare.md, "`--monitor N`"): `--until DATE`,
/// else today in the person's zone. The monitored dates are the N dates ending on it, whatever
/// the native side holds: a side that stopped delivering is judged on the dates it no longer
/// has, so an app that stopped syncing in March fails in November instead of passing on its own
/// last dates.
struct MonitorEnd: Sendable, Equatable {
    /// Day number (days since 1970-01-01) of the last date judged.
    var day: Int
    /// How `day` was chosen, for the report: `--until`, `today in Europe/Madrid`.
    var reason: String

    /// `until` when given; otherwise today, `now`, in the first zone of: `--timezone`, the zone
    /// the native side's latest date states (a payload's `timezone`, an IANA name or `+11:00`),
    /// the machine's own.
    static func resolve(until: Int?, timeZone: TimeZone?, native: [String: ComparableDay], now: Date = Date()) -> MonitorEnd {
        if let until { return MonitorEnd(day: until, reason: "--until") }
        let stated = native.max { $0.key < $1.key }?.value.timezone
        let zone = timeZone ?? stated.flatMap(Self.zone) ?? TimeZone.current
        let name = timeZone?.identifier ?? stated.flatMap { Self.zone($0) != nil ? $0 : nil } ?? TimeZone.current.identifier
        return MonitorEnd(day: today(in: zone, now: now), reason: "today in \(name)")
    }

    /// The civil date of `now` in `zone`.
    static func today(in zone: TimeZone, now: Date) -> Int {
        let local = now.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: now))
        return Int((local / 86_400).rounded(.down))
    }

    /// A payload's `timezone`: an IANA name, or a fixed offset `+11:00` / `-03:30`.
    static func zone(_ text: String) -> TimeZone? {
        let u = Array(text.utf8)
        if u.count == 6, u[0] == UInt8(ascii: "+") || u[0] == UInt8(ascii: "-"), u[3] == UInt8(ascii: ":"),
            let h = CivilDate.digits(u, 1, 2), let m = CivilDate.digits(u, 4, 2), h <= 18, m < 60
        {
            return TimeZone(secondsFromGMT: (u[0] == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60))
        }
        return TimeZone(identifier: text)
    }
}
