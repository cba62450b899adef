/// Every day's sum-rule totals of a `SumBook`, resolved while the caller does other work: the
/// larger half of `DayBook.finish` (sorting and resolving each day's pieces), run on its own
/// thread ("day-sums") so that finishing the days takes both cores (docs/performance.md,
/// "Finishing the days"). Without `parallel` it resolves at once on the caller's thread.
///
/// Threading: the book is a copy taken on the caller's thread before the worker starts; the
/// worker alone reads it (the day book does not touch its sums until `value` has returned), and
/// `resolve` captures only values. `BackgroundValue` orders the worker's result before `value`.
struct SumTotals {
    private let job: BackgroundValue<[Int: [Int: Double]]>?
    private let done: [Int: [Int: Double]]

    init(_ book: SumBook, resolve: @escaping @Sendable ([SumPiece]) -> Double, parallel: Bool) {
        guard parallel else {
            job = nil
            done = book.totals(resolve)
            return
        }
        let handed = Box(book)
        job = BackgroundValue(name: "day-sums") { [handed] in handed.value?.totals(resolve) ?? [:] }
        done = [:]
    }

    /// The totals by day and metric index (waits for the worker).
    func value() -> [Int: [Int: Double]] {
        guard let job else { return done }
        // The body cannot throw: `value` fails only with the error of a body, and there is none.
        return (try? job.value()) ?? [:]
    }
}
