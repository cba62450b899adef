/// What a day book's dates were cut by (the convert summary says it).
enum DayDating: Sendable {
    /// `--timezone`.
    case runZone
    /// The input's `HKTimeZone` entries (`ZoneTimeline`).
    case timeline
    /// Each timestamp's recorded offset: no `--timezone` and no `HKTimeZone` in the input.
    case recordedOffsets
}
