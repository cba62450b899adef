/// `explain`'s one read of an input: beside the day book, keeps what lies around the explained
/// date (the date ± 2 days in UTC, as `StoreDateReplay` plays a store's records) so that, when
/// the book could date samples only at its end (no `--timezone`: the `HKTimeZone` timeline is
/// known once the input is read), the date's samples are played again from memory into a book
/// that has the timeline from the start and places each on arrival, where its attribution hears
/// it. The input itself is read once (an export of several GB was read twice before).
///
/// What the window keeps decides the date's values exactly: a sample, workout or night that
/// overlaps the window (every offset, the night that ends on the date, the samples that cross
/// its midnights), and the names of every watch source the whole input showed, which the sum
/// rule ranks first wherever their samples are.
final class DateWindowRecorder: SampleSink {
    /// Samples' devices are wanted: the explanation lists them.
    let wantsDetails = true
    private let from: Int64
    private let to: Int64
    private var items: [Item] = []
    private(set) var watches: Set<String> = []
    private var exportDate: Timestamp?

    private enum Item {
        case sample(Sample)
        case workout(Workout)
        case night(SleepSummary)
    }

    init(day: Int) {
        from = Int64(day) * 86_400 - StoreDateReplay.margin
        to = Int64(day + 1) * 86_400 + StoreDateReplay.margin
    }

    /// Items kept (tests read it to see the window bounds memory).
    var count: Int { items.count }

    private func inWindow(_ start: Timestamp, _ end: Timestamp) -> Bool { start.seconds < to && end.seconds >= from }

    func exportDate(_ date: Timestamp) { exportDate = date }
    func sample(_ s: Sample) {
        if s.deviceIsWatch { watches.insert(s.source) }
        if inWindow(s.start, s.end) { items.append(.sample(s)) }
    }
    func workout(_ w: Workout) { if inWindow(w.start, w.end) { items.append(.workout(w)) } }
    func sleepSummary(_ n: SleepSummary) { if inWindow(n.sleepStart ?? n.sleepEnd, n.sleepEnd) { items.append(.night(n)) } }

    /// Plays what was kept into `book`, in the order it was read, its watch sources first.
    func replay(into book: DayBook) {
        book.knowWatches(watches)
        if let exportDate { book.exportDate(exportDate) }
        for item in items {
            switch item {
            case .sample(let s): book.sample(s)
            case .workout(let w): book.workout(w)
            case .night(let n): book.sleepSummary(n)
            }
        }
    }
}
