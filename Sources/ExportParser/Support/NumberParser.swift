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
