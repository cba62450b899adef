import Foundation

/// Decimal numbers from bytes without building a String: `strtod` on a small stack copy.
/// Inputs never use a locale decimal comma in values (docs/export-xml.md, "Numbers").
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `parse` reads `count` bytes
/// at `p` (valid for the call) into a stack buffer of `count + 1` with a NUL for `strtod`, and
/// checks `strtod` stopped exactly at `count`. A hot byte path: every record value.
enum NumberParser {
    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        guard count > 0, count < 64 else { return count >= 64 ? parseLong(p, count) : nil }
        let first = p[0]  // strtod would skip leading white space; a value has none
        guard (first >= 0x30 && first <= 0x39) || first == 0x2D || first == 0x2B || first == 0x2E else { return nil }
        if let v = plainDecimal(p, count) { return v }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buf -> Double? in
            for i in 0..<count { buf[i] = CChar(bitPattern: p[i]) }
            buf[count] = 0
            var end: UnsafeMutablePointer<CChar>? = nil
            let v = strtod(buf.baseAddress!, &end)
            guard let end, end - buf.baseAddress! == count, v.isFinite else { return nil }
            // strtod also takes hex and "inf"/"nan"; a health value is a plain decimal.
            for i in 0..<count where p[i] == 0x78 || p[i] == 0x58 || p[i] == 0x6E || p[i] == 0x4E { return nil }
            return v
        }
    }

    /// Clinger's fast path, exactly what strtod gives: a decimal `[+-]digits[.digits]` (at least
    /// one digit) whose significand fits in 53 bits and that has at most 22 digits after the
    /// point is the exact double significand divided by the exact double 10^k, and that one
    /// division rounds correctly, as strtod does. Nil for anything else (exponents, more digits),
    /// which then goes to strtod. Nearly every value of an export is such a decimal (`1078`,
    /// `0.97`, `72.5`); strtod took about 450 instructions a value (docs/export-xml.md, "The fifth pass").
    @inline(__always)
    static func plainDecimal(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        var i = 0
        let negative = p[0] == 0x2D
        if negative || p[0] == 0x2B { i = 1 }
        var significand: UInt64 = 0
        var digits = 0  // from the first non-zero digit: at most 19 keep the significand in 64 bits
        var seen = false
        var scale = 0  // digits after the point
        var point = false
        while i < count {
            let d = p[i] &- 0x30
            if d < 10 {
                seen = true
                if significand != 0 || d != 0 {
                    digits += 1
                    if digits > 19 { return nil }
                }
                significand = significand &* 10 &+ UInt64(d)
                if point { scale += 1 }
            } else if p[i] == 0x2E, !point {
                point = true
            } else {
                return nil
            }
            i += 1
        }
        guard seen, significand <= 1 << 53, scale <= 22 else { return nil }
        let v = scale == 0 ? Double(significand) : Double(significand) / exactPowerOfTen(scale)
        return negative ? -v : v
    }

    /// 10^e for 0 ≤ e ≤ 22 (22 for anything above), each exact in a double: the powers
    /// Clinger's fast path divides or multiplies by, here and in `HAEDecimalParser`. Literals in a
    /// switch, so no table behind a lazily initialised global on the hot path.
    @inline(__always)
    static func exactPowerOfTen(_ e: Int) -> Double {
        switch e {
        case 0: return 1e0
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    static func parse(_ s: String) -> Double? {
        var s = s
        return s.withUTF8 { b in b.baseAddress.flatMap { parse($0, b.count) } }
    }

    static func parseLong(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        let s = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        guard let v = Double(s), v.isFinite else { return nil }
        return v
    }
}
