/// What `explain` asks a day book to keep about one date while it folds the whole input: the
/// very sum pieces its `SumBook` kept for that date (with the sample each came from), and the
/// samples its other rules placed on that date or night. The book decides the placement; this
/// only listens, so an explanation can never place a sample where the payload did not.
///
/// Bounded by one date's samples (that night's sleep, that date's workouts, and the next date's
/// running samples a run crossing midnight may take), but for the sleep samples ending before the
/// date, held compactly until the book has chained them (a session can span any number of dates).
final class DayAttribution {
    /// Days since 1970-01-01 of the explained date.
    let day: Int
    /// Sum pieces on `day` by metric index, in the order kept, and the sample each is a part of.
    private(set) var pieces: [Int: [SumPiece]] = [:]
    private(set) var pieceSamples: [Int: [Sample]] = [:]
    /// Samples by metric index that the book placed on `day` (avg, latest, minmaxavg; the night
    /// ending on `day` for night-avg; the start's date for workout-avg).
    private(set) var samples: [Int: [Sample]] = [:]
    /// The sleep samples of the sessions that end on `day` (docs/rules.md, "Nights"), once the
    /// book has finished (`keepSleepSamples`).
    private(set) var sleepSamples: [Sample] = []
    /// While the book reads, every sleep sample that may be in one of those sessions (it ends on
    /// `day` or before), held compactly, with its position among the book's sleep samples.
    private var waitingSleep = HeldSleepSamples()
    private var sleepPositions: [Int32] = []
    /// Nights an input already summarised (HAE) that end on `day`.
    private(set) var nightSummaries: [SleepSummary] = []
    /// Workouts the book kept (duplicates left out) that start on `day` (workout fields, and the
    /// runs of running mechanics).
    private(set) var workouts: [Workout] = []

    init(day: Int) { self.day = day }

    @inline(__always)
    func piece(_ p: SumPiece, of s: Sample, metric m: Int, day n: Int) {
        guard n == day else { return }
        pieces[m, default: []].append(p)
        pieceSamples[m, default: []].append(s)
    }

    /// A sample of metric `m` placed on date or night `n`.
    @inline(__always)
    func sample(_ s: Sample, metric m: Int, day n: Int) {
        guard n == day else { return }
        samples[m, default: []].append(s)
    }

    /// A running-mechanics sample starting on date `n`: a run of the explained date that
    /// crosses midnight takes samples of the next date too, so both are kept.
    @inline(__always)
    func runningSample(_ s: Sample, metric m: Int, day n: Int) {
        guard n == day || n == day + 1 else { return }
        samples[m, default: []].append(s)
    }

    /// A sleep sample, the `position`-th the book kept, ending on date `endDay`. Which session it
    /// is in is known only at the end (`keepSleepSamples`): a session ends at or after each of its
    /// samples, so none ending after `day` can be in one of `day`'s; one ending any number of dates
    /// before can (a session chains for as long as each sample starts within 3 h of its end so
    /// far), so all those are held, 52 bytes each.
    func sleepSample(_ s: Sample, position: Int32, endDay: Int) {
        guard endDay <= day else { return }
        waitingSleep.append(s)
        sleepPositions.append(position)
    }

    /// Keeps the samples the book placed in a session of `day` (`NightBook.positions`).
    func keepSleepSamples(_ positions: Set<Int32>) {
        var kept: [Sample] = []
        for (i, p) in sleepPositions.enumerated() where positions.contains(p) { kept.append(waitingSleep[i]) }
        sleepSamples = kept
        waitingSleep = HeldSleepSamples()
        sleepPositions = []
    }

    func summary(_ night: SleepSummary, night n: Int) {
        guard n == day else { return }
        nightSummaries.append(night)
    }

    @inline(__always)
    func workout(_ w: Workout, day n: Int) {
        guard n == day else { return }
        workouts.append(w)
    }
}
