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
    /// The zone whose today `day` is (an IANA name or `+11:00`); nil with `--until`. A fleet
    /// verdict keeps it, so `--report` can tell a verdict of yesterday from today's.
    var zone: String? = nil

    /// `until` when given; otherwise today, `now`, in the first zone of: `--timezone`, the zone
    /// the native side's latest date states (a payload's `timezone`, an IANA name or `+11:00`),
    /// the machine's own.
    static func resolve(until: Int?, timeZone: TimeZone?, native: [String: ComparableDay], now: Date = Date()) -> MonitorEnd {
        if let until { return MonitorEnd(day: until, reason: "--until") }
        let stated = native.max { $0.key < $1.key }?.value.timezone
        let statedZone = stated.flatMap(PayloadTimeZone.zone)
        let zone = timeZone ?? statedZone ?? TimeZone.current
        let name = timeZone?.identifier ?? (statedZone != nil ? stated : nil) ?? TimeZone.current.identifier
        return MonitorEnd(day: today(in: zone, now: now), reason: "today in \(name)", zone: name)
    }

    /// The civil date of `now` in `zone`.
    static func today(in zone: TimeZone, now: Date) -> Int {
        let local = now.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: now))
        return Int((local / 86_400).rounded(.down))
    }
}
