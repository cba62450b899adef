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

    /// The offset east of UTC, now, of a payload's `timezone`: an IANA zone, `Z`, `UTC`, or
    /// `±HH:MM` / `±HHMM`; nil when it is none of these.
    func offset(ofZone name: String) -> Int32? {
        if name == "Z" || name == "UTC" || name == "GMT" { return 0 }
        let u = Array(name.utf8)
        if u.count == 6 || u.count == 5, u[0] == UInt8(ascii: "+") || u[0] == UInt8(ascii: "-") {
            let digits = u.count == 6 && u[3] == UInt8(ascii: ":") ? [u[1], u[2], u[4], u[5]] : Array(u[1...])
            guard digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let h = Int32(digits[0] - 0x30) * 10 + Int32(digits[1] - 0x30)
            let m = Int32(digits[2] - 0x30) * 10 + Int32(digits[3] - 0x30)
            guard h <= 14, m < 60 else { return nil }
            return (u[0] == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60)
        }
        guard let zone = TimeZone(identifier: name) else { return nil }
        return Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(now))))
    }
}
