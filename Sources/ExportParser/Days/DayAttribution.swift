/// What `explain` asks a day book to keep about one date and one metric while it folds the whole
/// input: the very sum pieces its `SumBook` kept for that date (with the sample each came from),
/// and the samples its other rules placed on that date or night. The book decides the placement;
/// this only listens, so an explanation can never place a sample where the payload did not.
///
/// Bounded by one date of one metric (plus that night's sleep and that date's workouts).
final class DayAttribution {
    /// Days since 1970-01-01 of the explained date.
    let day: Int
    /// The catalog index of the explained metric; nil when a sleep or workout field is explained.
    let metric: Int?
    /// Sum pieces of `metric` on `day`, in the order kept, and the sample each is a part of.
    private(set) var pieces: [SumPiece] = []
    private(set) var pieceSamples: [Sample] = []
    /// Samples of `metric` the book placed on `day` (avg, latest, minmaxavg; the night ending on
    /// `day` for night-avg; the start's date for workout-avg), and the sleep samples of that night.
    private(set) var samples: [Sample] = []
    /// Workouts the book kept (duplicates left out) that start on `day` (workout fields, and the
    /// runs of running mechanics).
    private(set) var workouts: [Workout] = []

    /// Nights an input already summarised (HAE) that end on `day`.
    private(set) var nightSummaries: [SleepSummary] = []

    init(day: Int, metric: Int?) {
        self.day = day
        self.metric = metric
    }

    @inline(__always)
    func piece(_ p: SumPiece, of s: Sample, metric m: Int, day n: Int) {
        guard n == day, m == metric else { return }
        pieces.append(p)
        pieceSamples.append(s)
    }

    /// A sample of metric `m` (nil: a sleep sample) placed on date or night `n`.
    @inline(__always)
    func sample(_ s: Sample, metric m: Int?, day n: Int) {
        guard n == day, m == metric else { return }
        samples.append(s)
    }

    /// A running-mechanics sample starting on date `n`: a run of the explained date that
    /// crosses midnight takes samples of the next date too, so both are kept.
    @inline(__always)
    func runningSample(_ s: Sample, metric m: Int, day n: Int) {
        guard n == day || n == day + 1, m == metric else { return }
        samples.append(s)
    }

    func summary(_ night: SleepSummary, night n: Int) {
        guard n == day, metric == nil else { return }
        nightSummaries.append(night)
    }

    @inline(__always)
    func workout(_ w: Workout, day n: Int) {
        guard n == day else { return }
        workouts.append(w)
    }
}
