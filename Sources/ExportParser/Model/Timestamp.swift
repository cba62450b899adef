/// An instant as an input recorded it: seconds since 1970 UTC plus the UTC offset the input wrote
/// beside it. Keeping the offset lets day attribution follow the file when no `--timezone` is given.
struct Timestamp: Hashable, Comparable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    var seconds: Int64
    /// The recorded offset east of UTC, in seconds (`+1100` → 39 600).
    var offset: Int32

    init(seconds: Int64, offset: Int32) {
        self.seconds = seconds
        self.offset = offset
    }

    static func < (a: Timestamp, b: Timestamp) -> Bool { a.seconds < b.seconds }
    static func == (a: Timestamp, b: Timestamp) -> Bool { a.seconds == b.seconds && a.offset == b.offset }
}
