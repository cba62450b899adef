/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), after
/// Howard Hinnant's `days_from_civil`. Used instead of Foundation's Calendar on the hot path.
package enum CivilDate {
    @inline(__always)
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    @inline(__always)
    static func civil(_ dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `YYYY-MM-DD` for a day number.
    package static func isoDate(_ dayNumber: Int) -> String {
        let c = civil(dayNumber)
        guard (0...9999).contains(c.year) else { return pad(c.year, 4) + "-" + pad(c.month, 2) + "-" + pad(c.day, 2) }
        return String(unsafeUninitializedCapacity: 10) { b in
            putDate(c, b)
            return 10
        }
    }

    /// Parses `YYYY-MM-DD` strictly (digits, ranges, real calendar day).
    package static func parseISODate(_ s: String) -> Int? {
        let u = Array(s.utf8)
        guard u.count == 10, u[4] == 0x2D, u[7] == 0x2D,
            let y = digits(u, 0, 4), let m = digits(u, 5, 2), let d = digits(u, 8, 2),
            (1...12).contains(m), d >= 1, d <= daysInMonth(year: y, month: m)
        else { return nil }
        return dayNumber(year: y, month: m, day: d)
    }

    /// ISO 8601 with offset and seconds precision, `2026-03-22T22:15:00+11:00`, for an instant
    /// shown at `offset` seconds east of UTC.
    ///
    /// Written as its 25 bytes (a year of four digits, an offset under 100 hours), not joined from
    /// padded pieces, which cost about 10 k instructions a call: the finish formats every
    /// workout's start and end and every night's in-bed times (docs/hae.md, "Rendering and
    /// start-up"). Any other year or offset is joined from the pieces as before.
    package static func isoTimestamp(seconds: Int64, offset: Int32) -> String {
        let local = seconds + Int64(offset)
        let day = Int((local >= 0 ? local : local - 86_399) / 86_400)
        let sod = Int(local - Int64(day) * 86_400)
        let c = civil(day)
        let a = Int(offset.magnitude)
        guard (0...9999).contains(c.year), a < 100 * 3600 else {
            return isoDate(day) + "T" + pad(sod / 3600, 2) + ":" + pad(sod / 60 % 60, 2) + ":" + pad(sod % 60, 2) + offsetString(offset)
        }
        return String(unsafeUninitializedCapacity: 25) { b in
            putDate(c, b)
            b[10] = 0x54
            put2(sod / 3600, b, 11)
            b[13] = 0x3A
            put2(sod / 60 % 60, b, 14)
            b[16] = 0x3A
            put2(sod % 60, b, 17)
            b[19] = offset < 0 ? 0x2D : 0x2B
            put2(a / 3600, b, 20)
            b[22] = 0x3A
            put2(a / 60 % 60, b, 23)
            return 25
        }
    }

    /// `YYYY-MM-DD` into the first 10 bytes of `b` (a year of 0–9999).
    @inline(__always)
    private static func putDate(_ c: (year: Int, month: Int, day: Int), _ b: UnsafeMutableBufferPointer<UInt8>) {
        put2(c.year / 100, b, 0)
        put2(c.year % 100, b, 2)
        b[4] = 0x2D
        put2(c.month, b, 5)
        b[7] = 0x2D
        put2(c.day, b, 8)
    }

    /// Two decimal digits of `v` (0–99) at `b[at]` and `b[at + 1]`.
    @inline(__always)
    private static func put2(_ v: Int, _ b: UnsafeMutableBufferPointer<UInt8>, _ at: Int) {
        b[at] = UInt8(truncatingIfNeeded: 0x30 + v / 10)
        b[at + 1] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
    }

    /// `+11:00`, `-05:30`, `+00:00`.
    static func offsetString(_ offset: Int32) -> String {
        let sign = offset < 0 ? "-" : "+"
        let a = Int(abs(offset))
        return sign + pad(a / 3600, 2) + ":" + pad(a / 60 % 60, 2)
    }

    @inline(__always)
    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    @inline(__always)
    static func digits(_ u: [UInt8], _ at: Int, _ n: Int) -> Int? {
        var v = 0
        for i in at..<(at + n) {
            let c = u[i] &- 0x30
            guard c < 10 else { return nil }
            v = v * 10 + Int(c)
        }
        return v
    }
}
