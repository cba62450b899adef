import ExportParser

/// Decimal text for the fixture files without Foundation's formatters (which follow the locale)
/// and without `description`'s exponent forms: rounded to at most `decimals` places, trailing
/// zeros dropped, always a decimal point.
enum FixtureNumber {
    static func text(_ v: Double, decimals: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (v * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, abs(scaled) < 9e18 else { return "0" }
        var n = Int64(scaled)
        let negative = n < 0
        if negative { n = -n }
        var whole = String(n / scale)
        var fraction = n % scale
        var digits = decimals
        while digits > 0 && fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        if digits > 0 {
            let f = String(fraction)
            whole += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return negative && n != 0 ? "-" + whole : whole
    }

    /// A whole number's text.
    static func int(_ v: Int) -> String { String(v) }
}
