import Foundation

/// How one day ended in this run.
struct DayResult: Sendable {
    enum End: Sendable, Equatable {
        case accepted
        case rejected(String)
        case failed(String)
        /// Never finished: the run stopped first (or the store could not record it).
        case notFinished
    }
    var date: String
    var end: End
    var status: Int?
    var attempts: Int
}

/// Sends the days with `concurrency` worker threads, each taking the next date in order, making
/// its requests and waits, and recording the end in the store before taking another. A stop
/// (401/403, an untrusted certificate) cancels the requests in flight and wakes every wait.
// @unchecked Sendable: shared state (`next`, `results`, `stopReason`) is behind `lock`.
final class PushSender: @unchecked Sendable {
    private let days: [PushDay]
    private let client: PushClient
    private let url: URL
    private let host: String
    private let key: APIKey?
    private let log: (any PushRecords)?
    private let policy: RetryPolicy
    private let maxAttempts: Int
    /// Waits `seconds` unless the run stops first (the tests record the waits instead).
    private let sleeper: @Sendable (Double, PushSender) -> Void
    private let progress: (@Sendable (Int) -> Void)?

    private let lock = NSCondition()
    private var next = 0
    private var results: [DayResult] = []
    private(set) var stopReason: String?

    init(
        days: [PushDay], client: PushClient, url: URL, host: String, key: APIKey?, log: (any PushRecords)?, policy: RetryPolicy,
        maxAttempts: Int,
        sleeper: (@Sendable (Double, PushSender) -> Void)?, progress: (@Sendable (Int) -> Void)?
    ) {
        self.days = days
        self.client = client
        self.url = url
        self.host = host
        self.key = key
        self.log = log
        self.policy = policy
        self.maxAttempts = maxAttempts
        self.sleeper = sleeper ?? { seconds, sender in sender.wait(seconds) }
        self.progress = progress
    }

    /// Sends everything and returns each day's end, in date order.
    func run(concurrency: Int) -> [DayResult] {
        let group = DispatchGroup()
        for i in 0..<min(concurrency, days.count) {
            group.enter()
            // The thread lets go of the sender (and so of the store) before it says it is done:
            // the store is closed when the run returns, not whenever the threads end.
            let box = Box(self)
            NamedThread.start("push \(i + 1)") {
                box.value?.work()
                box.value = nil
                group.leave()
            }
        }
        group.wait()
        let done = Dictionary(results.map { ($0.date, $0) }, uniquingKeysWith: { a, _ in a })
        return days.map { done[$0.date] ?? DayResult(date: $0.date, end: .notFinished, status: nil, attempts: 0) }
    }

    var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopReason != nil
    }

    /// Stops the run: no new day is taken, requests in flight are cancelled, waits end.
    func stop(_ reason: String) {
        lock.lock()
        if stopReason == nil { stopReason = reason }
        lock.broadcast()
        lock.unlock()
        client.cancelAll()
    }

    /// Sleeps up to `seconds`, waking at once when the run stops.
    func wait(_ seconds: Double) {
        let until = Date(timeIntervalSinceNow: seconds)
        lock.lock()
        while stopReason == nil, lock.wait(until: until) {}
        lock.unlock()
    }

    private func take() -> PushDay? {
        lock.lock()
        defer { lock.unlock() }
        guard stopReason == nil, next < days.count else { return nil }
        next += 1
        return days[next - 1]
    }

    private func work() {
        while let day = take() {
            var result = send(day)
            if result.end != .notFinished, let log {
                do {
                    try log.record(day, status: result.status, result: result.logResult, detail: result.detail, attempts: result.attempts)
                } catch {
                    // Without its record the day would be counted as pushed and never be again.
                    stop("the push of \(day.date) could not be recorded in the store: \(error)")
                    result.end = .notFinished
                }
            }
            lock.lock()
            results.append(result)
            let finished = results.count
            lock.unlock()
            progress?(finished)
        }
    }

    private func send(_ day: PushDay) -> DayResult {
        var attempts = 0
        while true {
            if isStopped { return DayResult(date: day.date, end: .notFinished, status: nil, attempts: attempts) }
            attempts += 1
            let exchange = client.post(url, body: day.body)
            if isStopped { return DayResult(date: day.date, end: .notFinished, status: nil, attempts: attempts) }
            switch policy.decide(exchange, failures: attempts, host: host, key: key) {
            case .accepted(let status):
                return DayResult(date: day.date, end: .accepted, status: status, attempts: attempts)
            case .rejected(let status, let reason):
                return DayResult(date: day.date, end: .rejected(reason), status: status, attempts: attempts)
            case .stopRun(let reason):
                stop(reason)
                return DayResult(date: day.date, end: .notFinished, status: nil, attempts: attempts)
            case .retry(let status, let delay, let reason):
                if attempts >= maxAttempts {
                    let why = "\(reason), given up after \(attempts) attempt\(attempts == 1 ? "" : "s")"
                    return DayResult(date: day.date, end: .failed(why), status: status, attempts: attempts)
                }
                sleeper(delay, self)
            }
        }
    }
}

extension DayResult {
    var logResult: PushLog.Result {
        switch end {
        case .accepted: return .accepted
        case .rejected: return .rejected
        case .failed, .notFinished: return .failed
        }
    }

    var detail: String? {
        switch end {
        case .accepted, .notFinished: return nil
        case .rejected(let r), .failed(let r): return r
        }
    }
}
