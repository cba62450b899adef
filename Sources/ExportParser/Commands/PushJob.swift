import Foundation

/// The `push` command: a person's daily payloads sent to the backend's sync endpoint one day a
/// request, as the app sends them, each day's end recorded in the store so that a rerun sends
/// only what was not accepted or has changed since (docs/push.md).
public final class PushJob {
    let request: PushRequest
    let endpoint: PushEndpoint
    /// Called after each day ends, on a worker thread.
    public var progress: (@Sendable (PushProgress) -> Void)?
    /// Replaces the real waits between retries (the tests record them instead of sleeping).
    var sleeper: (@Sendable (Double, PushSender) -> Void)?
    /// The jitter's random source, a number in [0, 1) (the tests fix it).
    var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    public init(_ request: PushRequest) throws {
        try request.validate()
        self.request = request
        endpoint = try PushEndpoint(request.url)
    }

    public func run() throws -> PushOutcome {
        let started = Date()
        let key =
            request.dryRun && request.apiKeyFile == nil && (request.environment[APIKey.environmentName] ?? "").isEmpty
            ? nil : try APIKey.load(file: request.apiKeyFile, environment: request.environment)
        let (days, log) = try loadDays()
        var outcome = PushOutcome(endpoint: endpoint.base, dryRun: request.dryRun)
        let earlier = try log?.entries() ?? [:]
        var toSend: [PushDay] = []
        for day in days {
            // A partial day would replace the complete day the app synced with a part of it
            // (docs/push.md, "Partial dates").
            if let moment = day.partialMoment, !request.includePartial {
                outcome.partialLeftOut.append(.init(date: day.date, moment: moment))
                continue
            }
            if !request.force, let e = earlier[day.date], e.result == PushLog.Result.accepted.rawValue, e.sha256 == day.sha256 {
                outcome.skipped += 1
            } else {
                toSend.append(day)
            }
        }
        if request.dryRun {
            outcome.planned = toSend.map { .init(date: $0.date, bytes: $0.body.count, changed: earlier[$0.date] != nil) }
            return outcome
        }
        guard let key else { throw UsageError("--api-key-file", "no API key") }
        let client = PushClient(key: key, timeout: request.timeout, connections: request.concurrency)
        defer { client.finish() }

        // The backend's own view first: when it last got HealthKit data.
        switch PushStatus.check(client, endpoint: endpoint, key: key) {
        case .stop(let reason):
            outcome.stopReason = reason
            outcome.notSent = toSend.count
            return outcome
        case .known(let text): outcome.lastSync = text
        case .unavailable(let why): outcome.statusProblem = why
        }

        let total = toSend.count
        let report = progress
        let policy = RetryPolicy(
            baseDelay: request.retryBaseDelay, maxDelay: request.maxRetryDelay, maxRetryAfter: request.maxRetryAfter,
            random: random)
        let sender = PushSender(
            days: toSend, client: client, url: endpoint.syncURL, host: endpoint.host, key: key, log: log, policy: policy,
            maxAttempts: request.maxAttempts, sleeper: sleeper
        ) { done in
            report?(PushProgress(done: done, total: total, elapsed: Date().timeIntervalSince(started)))
        }
        let results = sender.run(concurrency: request.concurrency)
        for r in results {
            if r.attempts > 0 { outcome.sent += 1 }
            switch r.end {
            case .accepted: outcome.accepted += 1
            case .rejected(let why), .failed(let why): outcome.failures.append(.init(date: r.date, reason: why))
            case .notFinished:
                outcome.notSent += 1
                if r.attempts > 0 { outcome.notSentButTried += 1 }
            }
        }
        outcome.stopReason = sender.stopReason
        outcome.elapsed = Date().timeIntervalSince(started)
        return outcome
    }

    /// The days to consider, and the store's record of pushes (nil for a dry run without a store).
    private func loadDays() throws -> ([PushDay], (any PushRecords)?) {
        let path = try StoreAccess.importStore(request.storePath, for: "push")
        let exists = FileManager.default.fileExists(atPath: path)
        if let dir = request.payloadsDir {
            let days = try PushDays.fromFolder(dir, from: request.from, to: request.to, body: request.body)
            if !exists {
                // Nothing was pushed yet; a dry run leaves no store behind.
                if request.dryRun { return (days, nil) }
                try OutputFiles.makeDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
                let store = try HealthStore(path: path)
                try store.publishIfNew()
                return (days, PushLog(store: store, person: request.person, endpoint: endpoint.base))
            }
            let store = try HealthStore(path: path)
            return (days, PushLog(store: store, person: request.person, endpoint: endpoint.base))
        }
        guard exists else {
            throw InputError(
                file: path, message: "no store here (convert writes one); give --store FILE, or --payloads DIR to send payload files")
        }
        let store = try HealthStore(path: path)
        let days = try PushDays.fromStore(store, path: path, person: request.person, from: request.from, to: request.to, body: request.body)
        return (days, PushLog(store: store, person: request.person, endpoint: endpoint.base))
    }
}

/// Progress of a push, for a terminal display: days ended of those to send.
public struct PushProgress: Sendable {
    public var done: Int
    public var total: Int
    public var elapsed: Double
}
