/// A finished day's values by `Metric.index`: a `Double?` a metric, kept in 8 bytes instead of
/// `[Double?]`'s 16 (a `Double?` is 9 bytes, padded to 16 in an array).
///
/// Why: every date's `FinishedDay` is held from the day book's finish through the store's commit
/// and the writing, each with a slot for each of the catalog's metrics (33): 560 bytes of
/// `[Double?]` a day, about 7 MB at the 12,205 dates of a 33-year export (issue 24); 296 bytes
/// here.
///
/// "No value" is one NaN bit pattern (`noneBits`) that no arithmetic makes: a NaN a rule does make
/// (the default one, whose bits differ) is still a value, told apart from none as with `Double?`
/// (the day book's finish turns it into none, `withFiniteValues`).
package struct DayValues: RandomAccessCollection, Sendable {
    /// A quiet NaN with a payload of its own: the processor's default NaN (what 0/0 or ∞ − ∞
    /// gives) is 0x7FF8_0000_0000_0000 or 0xFFF8_0000_0000_0000, never this.
    static let noneBits: UInt64 = 0x7FF8_0000_4E4F_4E45
    private var slots: [Double]

    /// `count` metrics, none with a value.
    package init(count: Int) {
        slots = Array(repeating: Double(bitPattern: Self.noneBits), count: count)
    }

    /// The values of `values` in order, nil where it has none.
    package init(_ values: [Double?]) {
        slots = values.map { $0 ?? Double(bitPattern: Self.noneBits) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { slots.count }

    /// The value of metric `i`, nil when it has none; setting nil removes it.
    package subscript(i: Int) -> Double? {
        @inline(__always) get {
            let v = slots[i]
            return v.bitPattern == Self.noneBits ? nil : v
        }
        @inline(__always) set { slots[i] = newValue ?? Double(bitPattern: Self.noneBits) }
    }
}
