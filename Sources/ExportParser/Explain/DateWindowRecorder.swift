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
/// rule ranks first wherever their samples are; and every sleep sample before the window, held
/// compactly (`HeldSleepSamples`): a sleep session chains samples over any number of dates, and
/// the date's sessions (which samples they take, and so the date they end on) are the whole
/// input's.
final class DateWindowRecorder: SampleSink {
    /// Samples' devices are wanted: the explanation lists them.
    let wantsDetails = true
    private let from: Int64
    private let to: Int64
    private var items: [Item] = []
    /// Sleep samples outside the window, and for each how many items were kept before it (so the
    /// replay plays them in the order read: a night's first sample gives a date's zone fallback).
    private var sleep = HeldSleepSamples()
    private var sleepAfter: [Int32] = []
    private(set) var watches: Set<String> = []
    /// The last watch source inserted: samples come in runs of one source, and a `Set` insert
    /// hashes the name (through Unicode normalisation for a name like `Anna’s Apple Watch`) where
    /// a comparison with the same interned text is one of two words (perf: 1 % of an `explain`
    /// of the 3 GB export, on the player's thread).
    private var lastWatch: String?
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

    /// Items kept in the window (tests read it to see the window bounds memory).
    var count: Int { items.count }
    /// Sleep samples held from outside the window.
    var heldSleepCount: Int { sleep.count }

    private func inWindow(_ start: Timestamp, _ end: Timestamp) -> Bool { start.seconds < to && end.seconds >= from }

    func exportDate(_ date: Timestamp) { exportDate = date }
    func sample(_ s: Sample) {
        if s.deviceIsWatch, s.source != lastWatch {
            watches.insert(s.source)
            lastWatch = s.source
        }
        if inWindow(s.start, s.end) {
            items.append(.sample(s))
        } else if s.type == Catalog.sleepType, s.start.seconds < to {
            // One that starts after the window cannot matter: a session it joins has run on to
            // within 3 h of it, two dates past the date's end, and is a later date's.
            sleep.append(s)
            sleepAfter.append(Int32(items.count))
        }
    }
    func workout(_ w: Workout) { if inWindow(w.start, w.end) { items.append(.workout(w)) } }
    func sleepSummary(_ n: SleepSummary) { if inWindow(n.sleepStart ?? n.sleepEnd, n.sleepEnd) { items.append(.night(n)) } }

    /// Plays what was kept into `book`, in the order it was read, its watch sources first.
    func replay(into book: DayBook) {
        book.knowWatches(watches)
        if let exportDate { book.exportDate(exportDate) }
        var held = 0
        for (i, item) in items.enumerated() {
            while held < sleep.count, sleepAfter[held] == i {
                book.sample(sleep[held])
                held += 1
            }
            switch item {
            case .sample(let s): book.sample(s)
            case .workout(let w): book.workout(w)
            case .night(let n): book.sleepSummary(n)
            }
        }
        while held < sleep.count {
            book.sample(sleep[held])
            held += 1
        }
    }
}
