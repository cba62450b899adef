/// The key of a fringe slot of the day book: a UTC quarter-hour and the offset its samples were
/// recorded in. Without `--timezone`, a sample recorded within `width` of a local midnight may
/// belong to the date before or after the one its recorded offset gives (export.xml writes every
/// timestamp in the export moment's offset, docs/rules.md); its rule's accumulator is kept under
/// this key until the input's `HKTimeZone` timeline says which date the slot is on. Offsets and
/// daylight-saving changes are whole quarter-hours, so a slot never straddles a local midnight.
enum FringeKey {
    /// How far the person's local time may be from the recorded offset's for one pass to be
    /// exact: one hour, a daylight-saving change. Further (a trip), the input is read again.
    static let width: Int64 = 3_600
    /// Keys per slot: the recorded offset in quarter-hours, shifted to be positive.
    private static let perSlot = 256
    /// A sum book of fringe keys resolves a key once its metric's stream is two days past it.
    static let lag = 2 * 96 * perSlot

    /// Whether a local time of day (seconds after midnight) is within `width` of a midnight.
    @inline(__always)
    static func isFringe(timeOfDay: Int64) -> Bool { timeOfDay < width || timeOfDay >= 86_400 - width }

    /// The key of instant `seconds` recorded at `offset` (a whole number of quarter-hours).
    @inline(__always)
    static func key(_ seconds: Int64, offset: Int32) -> Int {
        LocalClock.floorDiv(seconds, 900) * perSlot + Int(offset / 900) + perSlot / 2
    }

    /// The keys of every slot that can hold a piece of local dates `days`, whatever the offset
    /// (the slots within two days of them in UTC).
    static func keys(near days: ClosedRange<Int>) -> ClosedRange<Int> {
        let from = Int64(days.lowerBound - 2) * 86_400, to = Int64(days.upperBound + 3) * 86_400
        return LocalClock.floorDiv(from, 900) * perSlot...LocalClock.floorDiv(to, 900) * perSlot + perSlot - 1
    }

    /// The first instant of the key's quarter-hour.
    static func slotStart(_ key: Int) -> Int64 { Int64(LocalClock.floorDiv(Int64(key), Int64(perSlot))) * 900 }

    /// The offset the key's samples were recorded in.
    static func offset(_ key: Int) -> Int32 {
        let slot = LocalClock.floorDiv(Int64(key), Int64(perSlot))
        return Int32(key - slot * perSlot - perSlot / 2) * 900
    }

    /// The slot's date: in the timeline's zone when there is one, else in the recorded offset.
    static func day(_ key: Int, clock: LocalClock?) -> Int {
        let t = slotStart(key)
        if let clock { return clock.day(Timestamp(seconds: t, offset: 0)) }
        return LocalClock.floorDiv(t + Int64(offset(key)), 86_400)
    }
}
