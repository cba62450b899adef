/// A part of `DayBook.finish` computed on a thread of its own while the finishing thread goes
/// on: the sum rule's dates (`day-sums`: each date's pieces sorted and resolved by source
/// priority) and the nights (`day-nights`: sleep resolved per night), the largest parts of the
/// closing work, which is on the critical path of every convert (docs/performance.md, "Finishing
/// the days"). Without `parallel` the body runs at once on the caller's thread.
///
/// Threading: the body must use only what no other thread touches until `value` has returned
/// (`DayBook.finish` hands it a copy of the book it reads, boxed, and a clock of its own: a
/// `LocalClock` caches). `BackgroundValue` orders the body's result before `value`.
struct FinishingWork<Value> {
    private enum State {
        case done(Value)
        case running(BackgroundValue<Value>)
    }
    private let state: State

    init(_ threadName: String, parallel: Bool, _ body: @escaping @Sendable () -> Value) {
        state = parallel ? .running(BackgroundValue(name: threadName, body)) : .done(body())
    }

    /// The body's result (waits for its thread).
    func value() -> Value {
        switch state {
        case .done(let v): return v
        case .running(let job):
            do { return try job.value() } catch { preconditionFailure("a finishing part cannot throw: \(error)") }
        }
    }
}
