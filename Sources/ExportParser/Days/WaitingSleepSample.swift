/// A sleep sample waiting for the end of the input, when its night is known (`NightBook.place`;
/// without `--timezone`, by the zone timeline read whole): a `SleepSegment` with its source as
/// the day book's source id, 32 bytes instead of 48. A 15-year export holds about 120,000.
struct WaitingSleepSample {
    var start: Int64
    var end: Int64
    var startOffset: Int32
    var endOffset: Int32
    var source: Int32
    var stage: SleepSegment.Stage

    init(_ s: SleepSegment, source: Int32) {
        (start, end, startOffset, endOffset) = (s.start.seconds, s.end.seconds, s.start.offset, s.end.offset)
        self.source = source
        stage = s.stage
    }

    /// The segment again, its source named from `names` (the day book's `SourceTable.names`).
    func segment(names: [String]) -> SleepSegment {
        SleepSegment(
            start: Timestamp(seconds: start, offset: startOffset), end: Timestamp(seconds: end, offset: endOffset), stage: stage,
            source: names[Int(source)])
    }
}
