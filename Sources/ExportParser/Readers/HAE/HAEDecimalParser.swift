/// Numbers from yajl's number bytes, exactly as `strtod` would give them but without its cost
/// in the common cases (strtod was about a tenth of the reader's time).
///
/// - Clinger's fast path: when the decimal significand fits in 53 bits and the power of ten is at
///   most 22, both are exact doubles and one multiplication or division rounds correctly.
/// - iOS writes full 17-digit doubles (`57.189999999999998`). On x86-64 those go through
///   `Float80`: a significand of up to 19 digits (< 2^64) and 10^k for k ≤ 27 are exact there, the
///   one operation is correctly rounded to 64 bits, and rounding that to a double is correct
///   unless the 64-bit result sits exactly halfway between two doubles (the 11 extra bits are
///   `10000000000`); only then, and for anything else (exponent forms, longer significands), does
///   the number go to `NumberParser` (strtod). yajl has already checked the JSON number syntax.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `parse` reads the `n` bytes
/// of a yajl number at `p` (valid for the call), never past `n`. A hot byte scan: it runs once per
/// number of an HAE file.
enum HAEDecimalParser {
    #if arch(x86_64)
        /// 10^e for e ≤ 27, exact in Float80 (5^27 < 2^64).
        @inline(__always)
        private static func extendedPower(_ e: Int) -> Float80 {
            e <= 22 ? Float80(NumberParser.exactPowerOfTen(e)) : Float80(NumberParser.exactPowerOfTen(e - 5)) * 100_000
        }
    #endif

    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
        var i = 0
        var negative = false
        if i < n, p[i] == 0x2D { negative = true; i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        while i < n, p[i] &- 0x30 < 10 {
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30); if mantissa != 0 { digits += 1 }
            } else {
                exponent += 1; digits += 1
            }
            i += 1
        }
        if i < n, p[i] == 0x2E {
            i += 1
            while i < n, p[i] &- 0x30 < 10 {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30); if mantissa != 0 { digits += 1 }; exponent -= 1
                } else {
                    digits += 1
                }
                i += 1
            }
        }
        guard i == n, digits <= 19 else { return NumberParser.parse(p, n) }  // exponent form or > 19 digits
        if mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            let m = Double(mantissa)
            let v = exponent >= 0 ? m * NumberParser.exactPowerOfTen(exponent) : m / NumberParser.exactPowerOfTen(-exponent)
            return negative ? -v : v
        }
        #if arch(x86_64)
            if exponent >= -27, exponent <= 27 {
                let m = Float80(mantissa)
                let r = exponent >= 0 ? m * extendedPower(exponent) : m / extendedPower(-exponent)
                if r.significandBitPattern & 0x7FF != 0x400 {
                    let v = Double(r)
                    return negative ? -v : v
                }
            }
        #endif
        return NumberParser.parse(p, n)
    }
}
