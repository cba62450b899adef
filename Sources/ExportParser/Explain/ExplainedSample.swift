import Foundation

/// One sample (or sleep interval, or workout) an explanation lists, in the field's unit.
struct ExplainedSample: Sendable {
    /// ISO 8601 with the local offset.
    var start: String
    var end: String
    /// The whole sample's value in the field's unit; nil for a sleep interval or a workout.
    var value: Double?
    /// A sleep stage or a workout type.
    var text: String?
    var source: String
    /// The device's name and model (`Apple Watch, Watch`), when the input states one.
    var device: String?
    /// Sum rule: the part of `value` that falls on the date (the whole unless split at midnight).
    var onDate: Double?
    /// The part the rule counted towards the value; nil where the value is not made of parts
    /// (text fields).
    var counted: Double?
    /// Whether the rule used the sample at all.
    var used: Bool
    /// Why it counted less than it holds, or what else to know (a duplicate, a bucket).
    var note: String?

    init(
        start: String, end: String, value: Double? = nil, text: String? = nil, source: String, device: String? = nil,
        onDate: Double? = nil, counted: Double? = nil, used: Bool, note: String? = nil
    ) {
        self.start = start
        self.end = end
        self.value = value
        self.text = text
        self.source = source
        self.device = device
        self.onDate = onDate
        self.counted = counted
        self.used = used
        self.note = note
    }

    /// `name` and `model` of an `HKDevice` description (`<<HKDevice>, name:Apple Watch, …,
    /// model:Watch, …>`), or the text as written when it has neither.
    static func deviceName(_ raw: String?) -> String? {
        guard let raw, !raw.isEmpty else { return nil }
        func part(_ key: String) -> String? {
            guard let r = raw.range(of: key + ":") else { return nil }
            let rest = raw[r.upperBound...]
            let end = rest.firstIndex { $0 == "," || $0 == ">" } ?? rest.endIndex
            let v = rest[..<end].trimmingCharacters(in: .whitespaces)
            return v.isEmpty ? nil : v
        }
        let parts = [part("name"), part("model")].compactMap { $0 }
        return parts.isEmpty ? raw : parts.joined(separator: ", ")
    }
}
