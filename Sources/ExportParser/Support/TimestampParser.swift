/// Parses the date layouts inputs write, straight from bytes (no Foundation formatter: those
/// cost ~120 µs a call on Linux, measured against ~30 ns for this parser).
///
/// - export.xml and HAE: `yyyy-MM-dd HH:mm:ss ±HHMM` (25 bytes).
/// - HAE with a 12-hour clock: `yyyy-MM-dd h:mm:ss AM ±HHMM`, the space before AM/PM plain or
///   U+202F (narrow no-break space).
/// - `±HH:MM` offsets and a `Z` are accepted too (ISO-style inputs).
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `parse` reads `count` bytes
/// at `p` (valid for the call); `parseFixed` is called only with 25 bytes, and `parseLenient` never
/// indexes at or past `count`. A hot byte path: three dates a record.
enum TimestampParser {
    /// Parses a timestamp from `count` bytes at `p`; nil when the layout, a digit or a range is wrong.
    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ count: Int) -> Timestamp? {
        if count == 25, p[10] == 0x20, let t = parseFixed(p) { return t }
        return parseLenient(p, count)
    }

    /// Parses a timestamp from the bytes of an array (as `parse(_:_:)`).
    static func parse(_ bytes: [UInt8]) -> Timestamp? {
        bytes.withUnsafeBufferPointer { b in b.baseAddress.flatMap { parse($0, b.count) } }
    }

    static func parse(_ s: String) -> Timestamp? {
        var s = s
        return s.withUTF8 { b in b.baseAddress.flatMap { parse($0, b.count) } }
    }

    /// The 25-byte layout, the one every export.xml record uses.
    @inline(__always)
    static func parseFixed(_ p: UnsafePointer<UInt8>) -> Timestamp? {
        guard p[4] == 0x2D, p[7] == 0x2D, p[10] == 0x20, p[13] == 0x3A, p[16] == 0x3A, p[19] == 0x20 else { return nil }
        @inline(__always) func d2(_ i: Int) -> Int {
            let a = Int(p[i] &- 0x30), b = Int(p[i + 1] &- 0x30)
            return a < 10 && b < 10 ? a * 10 + b : -1
        }
        let yh = d2(0), yl = d2(2), mo = d2(5), da = d2(8), hh = d2(11), mi = d2(14), ss = d2(17), oh = d2(21), om = d2(23)
        guard yh >= 0, yl >= 0, mo >= 1, mo <= 12, da >= 1, hh >= 0, hh <= 23, mi >= 0, mi <= 59, ss >= 0, ss <= 60,
            oh >= 0, oh <= 18, om >= 0, om <= 59
        else { return nil }
        let year = yh * 100 + yl
        guard da <= CivilDate.daysInMonth(year: year, month: mo) else { return nil }
        let sign: Int
        switch p[20] {
        case 0x2B: sign = 1
        case 0x2D: sign = -1
        default: return nil
        }
        let offset = sign * (oh * 3600 + om * 60)
        let days = CivilDate.dayNumber(year: year, month: mo, day: da)
        let local = Int64(days) * 86_400 + Int64(hh * 3600 + mi * 60 + ss)
        return Timestamp(seconds: local - Int64(offset), offset: Int32(offset))
    }

    /// Every other layout: tokenises date, time (with optional AM/PM) and offset.
    static func parseLenient(_ p: UnsafePointer<UInt8>, _ count: Int) -> Timestamp? {
        var i = 0
        func skipSpaces() {
            while i < count {
                if p[i] == 0x20 || p[i] == 0x54 /* T */ { i += 1; continue }
                // U+202F narrow no-break space and U+00A0 no-break space
                if p[i] == 0xE2, i + 2 < count, p[i + 1] == 0x80, p[i + 2] == 0xAF { i += 3; continue }
                if p[i] == 0xC2, i + 1 < count, p[i + 1] == 0xA0 { i += 2; continue }
                break
            }
        }
        func number(maxDigits: Int) -> Int? {
            var v = 0, n = 0
            while i < count, n < maxDigits, p[i] >= 0x30, p[i] <= 0x39 { v = v * 10 + Int(p[i] - 0x30); i += 1; n += 1 }
            return n > 0 ? v : nil
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < count, p[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(maxDigits: 4), i == 4, expect(0x2D), let mo = number(maxDigits: 2), expect(0x2D),
            let da = number(maxDigits: 2), (1...12).contains(mo), da >= 1, da <= CivilDate.daysInMonth(year: year, month: mo)
        else { return nil }
        let days = CivilDate.dayNumber(year: year, month: mo, day: da)
        if i == count { return nil }  // a date alone is not an instant
        skipSpaces()
        guard var hh = number(maxDigits: 2), expect(0x3A), let mi = number(maxDigits: 2), expect(0x3A), let ss = number(maxDigits: 2),
            mi <= 59, ss <= 60
        else { return nil }
        if i < count, p[i] == 0x2E {  // fractional seconds are dropped (seconds precision)
            i += 1
            while i < count, p[i] >= 0x30, p[i] <= 0x39 { i += 1 }
        }
        skipSpaces()
        if i + 1 < count, (p[i] | 0x20) == 0x61 || (p[i] | 0x20) == 0x70, (p[i + 1] | 0x20) == 0x6D {  // am / pm
            guard hh >= 1, hh <= 12 else { return nil }
            let pm = (p[i] | 0x20) == 0x70
            hh = hh % 12 + (pm ? 12 : 0)
            i += 2
            skipSpaces()
        }
        guard hh <= 23 else { return nil }
        var offset = 0
        if i < count, p[i] == 0x5A {  // Z
            i += 1
        } else {
            guard i < count, p[i] == 0x2B || p[i] == 0x2D else { return nil }
            let sign = p[i] == 0x2D ? -1 : 1
            i += 1
            guard let oh = number(maxDigits: 2) else { return nil }
            _ = expect(0x3A)
            guard let om = number(maxDigits: 2), oh <= 18, om <= 59 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        }
        guard i == count else { return nil }
        let local = Int64(days) * 86_400 + Int64(hh * 3600 + mi * 60 + ss)
        return Timestamp(seconds: local - Int64(offset), offset: Int32(offset))
    }
}
