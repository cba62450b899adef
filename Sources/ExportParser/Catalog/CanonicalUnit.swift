/// The units the payload is written in, and how every input unit known for them converts.
///
/// Conversions are linear (`value × scale + offset`), keyed by the unit string exactly as inputs
/// write it. An input unit not listed for the target is an error for that sample, never a guess.
package enum CanonicalUnit: String, Sendable, CaseIterable {
    case count
    case countPerMinute = "count/min"
    case milliseconds = "ms"
    case vo2 = "mL/min·kg"
    case degreesCelsius = "degC"
    case percent = "%"
    case kilometres = "km"
    case kilocalories = "kcal"
    case minutes = "min"
    case hours = "hr"
    case kilometresPerHour = "km/hr"
    case watts = "W"
    case metres = "m"
    case centimetres = "cm"
    case grams = "g"
    case milligrams = "mg"
    case kilograms = "kg"

    /// How percent values are written by an input: export.xml stores fractions (0.97), Health
    /// Auto Export whole percentages (97).
    enum PercentScale: Sendable { case fraction, whole }

    /// Converts `value` written in `unit` to this unit, or nil when `unit` is unknown for it.
    @inline(__always)
    func convert(_ value: Double, from unit: String, percentScale: PercentScale = .fraction) -> Double? {
        if self == .percent {
            guard unit == "%" || unit == "percent" else { return nil }
            return percentScale == .fraction ? value * 100 : value
        }
        if unit == rawValue { return value }
        guard let (scale, offset) = Self.table[self]?[unit] else { return nil }
        return value * scale + offset
    }

    /// Input unit → (scale, offset) per target. Spellings come from export.xml and HAE files
    /// (docs/catalog.md, "Units").
    static let table: [CanonicalUnit: [String: (Double, Double)]] = [
        .count: ["count": (1, 0), "steps": (1, 0)],
        .countPerMinute: ["bpm": (1, 0), "count/s": (60, 0), "breaths/min": (1, 0)],
        .milliseconds: ["s": (1000, 0)],
        .vo2: ["mL/min-kg": (1, 0), "ml/(kg·min)": (1, 0), "mL/(kg·min)": (1, 0), "ml/(kg*min)": (1, 0)],
        .degreesCelsius: ["degF": (5.0 / 9.0, -32.0 * 5.0 / 9.0), "K": (1, -273.15)],
        .kilometres: ["mi": (1.609344, 0), "m": (0.001, 0), "ft": (0.0003048, 0), "yd": (0.0009144, 0), "cm": (0.00001, 0)],
        .kilocalories: ["Cal": (1, 0), "kJ": (1 / 4.184, 0), "cal": (0.001, 0)],
        .minutes: ["hr": (60, 0), "s": (1.0 / 60.0, 0), "h": (60, 0)],
        .hours: ["min": (1.0 / 60.0, 0), "s": (1.0 / 3600.0, 0), "h": (1, 0)],
        .kilometresPerHour: [
            "mi/hr": (1.609344, 0), "mph": (1.609344, 0), "m/s": (3.6, 0), "km/h": (1, 0), "kmph": (1, 0), "ft/s": (1.09728, 0),
        ],
        .watts: ["kW": (1000, 0)],
        .metres: [
            "ft": (0.3048, 0), "cm": (0.01, 0), "in": (0.0254, 0), "km": (1000, 0), "mi": (1609.344, 0), "yd": (0.9144, 0),
            "mm": (0.001, 0),
        ],
        .centimetres: ["in": (2.54, 0), "m": (100, 0), "mm": (0.1, 0), "ft": (30.48, 0)],
        .grams: ["mg": (0.001, 0), "kg": (1000, 0), "mcg": (0.000001, 0), "oz": (28.349523125, 0)],
        .milligrams: ["g": (1000, 0), "mcg": (0.001, 0)],
        .kilograms: ["lb": (0.45359237, 0), "g": (0.001, 0), "st": (6.35029318, 0)],
    ]
}
