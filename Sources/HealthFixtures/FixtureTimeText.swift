import ExportParser

/// Writes instants as export.xml and HAE write them, `2026-03-22 07:00:00 +1100` (the text of
/// `FixtureClock.exportText`), straight into a buffer: three of them in every record, so the
/// date's and the offset's text are kept from one call to the next rather than made again.
///
/// With `fixedOffset` every instant is written in that one offset, as the Health app writes
/// export.xml: in the offset the phone had at the export moment (docs/export-xml.md).
struct FixtureTimeText {
    let clock: FixtureClock
    let fixedOffset: Int32?
    private var day = Int.min
    private var dayText: [UInt8] = []
    private var offset = Int32.min
    private var offsetText: [UInt8] = []

    init(clock: FixtureClock, fixedOffset: Int32? = nil) {
        self.clock = clock
        self.fixedOffset = fixedOffset
    }

    mutating func put(_ t: Int64, into out: inout ByteBuffer) {
        let off = fixedOffset ?? clock.offset(t)
        let local = t + Int64(off)
        let d = LocalClock.floorDiv(local, 86_400)
        if d != day {
            day = d
            dayText = Array(CivilDate.isoDate(d).utf8)
        }
        if off != offset {
            offset = off
            let a = Int(off.magnitude)
            var b = ByteBuffer(capacity: 6)
            b.put(off < 0 ? " -" : " +")
            b.twoDigits(a / 3_600)
            b.twoDigits(a / 60 % 60)
            offsetText = b.bytes
        }
        let seconds = Int(local - Int64(d) * 86_400)
        out.put(dayText)
        out.bytes.append(0x20)
        out.twoDigits(seconds / 3_600)
        out.bytes.append(0x3A)
        out.twoDigits(seconds / 60 % 60)
        out.bytes.append(0x3A)
        out.twoDigits(seconds % 60)
        out.put(offsetText)
    }

    /// An attribute ` name="time"`.
    mutating func attribute(_ name: String, _ t: Int64, into out: inout ByteBuffer) {
        out.bytes.append(0x20)
        out.put(name)
        out.bytes.append(contentsOf: [0x3D, 0x22])
        put(t, into: &out)
        out.bytes.append(0x22)
    }
}
