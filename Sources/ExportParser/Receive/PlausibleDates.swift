import Foundation

/// The dates a received body's data may fall on (docs/receive.md, "What a body must be"): from
/// 2014-01-01 (HealthKit's first year: no Apple Health data is older) to tomorrow in the data's
/// own zone. The receiver knows no zone per person, so the zone is the one the data states: a
/// payload's `timezone` (an IANA name or an offset such as `+11:00`), an HAE datum's recorded
/// offset. A payload whose zone cannot be read is judged at UTC+14, the most advanced zone on
/// Earth: the most generous "tomorrow" any person can have. One day past today is allowed, since
/// a phone whose clock runs a little ahead, or a date that began in the person's zone but not yet
/// in the receiver's, is no error.
struct PlausibleDates: Sendable {
    static let earliest = CivilDate.dayNumber(year: 2014, month: 1, day: 1)
    /// UTC+14 (Kiribati's Line Islands), in seconds.
    static let widestOffset: Int32 = 14 * 3600

    /// Now, seconds since 1970 UTC.
    let now: Int64

    init(now: Date) { self.now = Int64(now.timeIntervalSince1970.rounded(.down)) }

    /// The day number of `seconds` at `offset` seconds east of UTC.
    static func day(_ seconds: Int64, offset: Int32) -> Int {
        let local = seconds + Int64(offset)
        return Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }

    /// The last plausible date for data at `offset`: today there, plus one.
    func latest(offset: Int32) -> Int { Self.day(now, offset: offset) + 1 }

    /// Why the date `day` (a day number) at `offset` is no real day's data, or nil when it can be.
    func problem(_ day: Int, offset: Int32) -> String? {
        if day < Self.earliest { return "is before 2014-01-01 (HealthKit holds nothing older)" }
        let last = latest(offset: offset)
        if day > last { return "is after tomorrow (\(CivilDate.isoDate(last)) in the data's zone)" }
        return nil
    }

    /// The offset east of UTC, now, of a payload's `timezone` (`PayloadTimeZone`); nil when it
    /// is none.
    func offset(ofZone name: String) -> Int32? {
        PayloadTimeZone.zone(name).map { Int32($0.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(now)))) }
    }
}
