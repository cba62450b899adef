/// `TimestampParser.parse` for the dates of export.xml's records, remembering the last
/// `yyyy-MM-dd` and ` ±HHMM` it read: a record's start and end, and the records after it, nearly
/// always share both, so only the time of day is read again (the date checked against its month
/// and turned into a day number, and the offset, are not). Each record has two or three dates; this
/// took their cost from about 270 to about 60 instructions (docs/export-xml.md, "The fifth pass").
///
/// Exactly `TimestampParser.parse`: the remembered parts come only from a 25-byte date that
/// `parseFixed` accepted, and a date that repeats them byte for byte is checked in its other
/// bytes (`:` at 13 and 16, the hour, minute and second digits and ranges) as `parseFixed`
/// checks them. Anything else goes to `TimestampParser.parse`.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `parse` reads `count`
/// bytes at `p` (valid for the call), and reads the fixed layout's offsets only when `count` is 25.
struct RecentDateParser {
    private var dateHead: UInt64 = 0  // bytes 0–7
    private var dateTail: UInt16 = 0  // bytes 8–9
    private var zoneHead: UInt32 = 0  // bytes 19–22 (" +01")
    private var zoneTail: UInt16 = 0  // bytes 23–24 ("00")
    private var day: Int64 = 0  // the remembered date's day number times 86,400, less the offset
    private var offset: Int32 = 0
    private var remembered = false

    @inline(__always)
    private static func load<T: FixedWidthInteger>(_ p: UnsafePointer<UInt8>, _ at: Int, as: T.Type) -> T {
        UnsafeRawPointer(p + at).loadUnaligned(as: T.self)
    }

    /// Two digits at `i` as a number, or -1.
    @inline(__always)
    private static func twoDigits(_ p: UnsafePointer<UInt8>, _ i: Int) -> Int {
        let a = Int(p[i] &- 0x30), b = Int(p[i + 1] &- 0x30)
        return a < 10 && b < 10 ? a * 10 + b : -1
    }

    @inline(__always)
    mutating func parse(_ p: UnsafePointer<UInt8>, _ count: Int) -> Timestamp? {
        guard count == 25, p[10] == 0x20 else { return TimestampParser.parseLenient(p, count) }
        if remembered, Self.load(p, 0, as: UInt64.self) == dateHead, Self.load(p, 8, as: UInt16.self) == dateTail,
            Self.load(p, 19, as: UInt32.self) == zoneHead, Self.load(p, 23, as: UInt16.self) == zoneTail
        {
            let hh = Self.twoDigits(p, 11), mi = Self.twoDigits(p, 14), ss = Self.twoDigits(p, 17)
            if p[13] == 0x3A, p[16] == 0x3A, hh >= 0, hh <= 23, mi >= 0, mi <= 59, ss >= 0, ss <= 60 {
                return Timestamp(seconds: day + Int64(hh * 3600 + mi * 60 + ss), offset: offset)
            }
            return TimestampParser.parseLenient(p, count)  // what `parse` does when `parseFixed` refuses
        }
        guard let t = TimestampParser.parseFixed(p) else { return TimestampParser.parseLenient(p, count) }
        // parseFixed accepted: the time-of-day digits are valid, and the rest is the date's.
        let timeOfDay = Int64(Self.twoDigits(p, 11) * 3600 + Self.twoDigits(p, 14) * 60 + Self.twoDigits(p, 17))
        day = t.seconds - timeOfDay
        offset = t.offset
        dateHead = Self.load(p, 0, as: UInt64.self)
        dateTail = Self.load(p, 8, as: UInt16.self)
        zoneHead = Self.load(p, 19, as: UInt32.self)
        zoneTail = Self.load(p, 23, as: UInt16.self)
        remembered = true
        return t
    }
}
