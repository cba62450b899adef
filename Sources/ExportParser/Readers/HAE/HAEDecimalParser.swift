/// Numbers from yajl's number bytes, exactly as `strtod` would give them but without its cost
/// in the common case (strtod was about a tenth of the reader's time).
///
/// Clinger's fast path: when the decimal significand fits in 53 bits and the power of ten is at
/// most 22, both are exact doubles and one multiplication or division rounds correctly. HAE's
/// full doubles with 17 significant digits (`61.999999999999993`) fall outside and go to
/// `NumberParser` (strtod). yajl has already checked the JSON number syntax.
enum HAEDecimalParser {
    private static let powers: [Double] = (0...22).map { e in var v = 1.0; for _ in 0..<e { v *= 10 }; return v }

    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
        var i = 0
        var negative = false
        if i < n, p[i] == 0x2D { negative = true; i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        while i < n, p[i] &- 0x30 < 10 {
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30); if mantissa != 0 { digits += 1 } } else { exponent += 1 }
            i += 1
        }
        if i < n, p[i] == 0x2E {
            i += 1
            while i < n, p[i] &- 0x30 < 10 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30); if mantissa != 0 { digits += 1 }; exponent -= 1 }
                i += 1
            }
        }
        if i < n, p[i] | 0x20 == 0x65 { return NumberParser.parse(p, n) } // exponent form: rare
        guard i == n, digits < 19, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return NumberParser.parse(p, n) }
        let m = Double(mantissa)
        let v = exponent >= 0 ? m * powers[exponent] : m / powers[-exponent]
        return negative ? -v : v
    }
}
