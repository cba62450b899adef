import Foundation

/// What a `push` run was asked to do (the CLI's options; `PushJob` validates them). The API key
/// is not among them: it comes from `apiKeyFile` or the environment (`APIKey`), never from the
/// command line, where other users of the machine can read it.
public struct PushRequest: Sendable {
    /// The backend's base URL; the requests go to `URL/sync/healthkit` and `URL/sync/status`.
    public var url: String
    /// A file holding the API key (mode 0600 or stricter); nil: `HEALTH_IMPORT_API_KEY`.
    public var apiKeyFile: String?
    /// The store the payloads come from (unless `payloadsDir`) and where every push is recorded.
    public var storePath: String
    public var person: String
    /// `--payloads DIR`: send the `DATE.json` files of this folder instead of the store's payloads.
    public var payloadsDir: String?
    /// `YYYY-MM-DD` bounds of the dates sent (inclusive).
    public var from: String?
    public var to: String?
    public var body: PushBody
    /// Send every date again, whatever the store says was accepted.
    public var force: Bool
    /// List what would be sent (dates, sizes) and send nothing.
    public var dryRun: Bool
    /// Send the partial dates too: those on which their input's export moment falls
    /// (`PartialDate`; docs/push.md, "Partial dates"). Off: they are left out, and said so.
    public var includePartial = false
    /// Requests in flight at once.
    public var concurrency: Int
    /// Requests made for one day before it is given up (the first one included).
    public var maxAttempts: Int
    /// Seconds a request may take before it counts as timed out (and is tried again).
    public var timeout: Double

    /// The first retry's backoff in seconds, doubled with every further one (before jitter).
    /// Not an option: the tests set it to milliseconds so they never sleep for real.
    var retryBaseDelay: Double = 1
    /// The longest backoff, and the longest `Retry-After` honoured (a longer one is cut to it).
    var maxRetryDelay: Double = 60
    var maxRetryAfter: Double = 600
    /// Where `HEALTH_IMPORT_API_KEY` is read (the tests give their own).
    var environment: [String: String] = ProcessInfo.processInfo.environment

    public init(
        url: String, apiKeyFile: String? = nil, storePath: String = "out/health.sqlite", person: String = "me",
        payloadsDir: String? = nil, from: String? = nil, to: String? = nil, body: PushBody = .wrapped, force: Bool = false,
        dryRun: Bool = false, concurrency: Int = 4, maxAttempts: Int = 6, timeout: Double = 30
    ) {
        self.url = url
        self.apiKeyFile = apiKeyFile
        self.storePath = storePath
        self.person = person
        self.payloadsDir = payloadsDir
        self.from = from
        self.to = to
        self.body = body
        self.force = force
        self.dryRun = dryRun
        self.concurrency = concurrency
        self.maxAttempts = maxAttempts
        self.timeout = timeout
    }

    /// Checks the options before anything is read or sent (the command's `validate()` calls it):
    /// a URL the tool may send health data to, dates in order, sane numbers, and a key to send
    /// (except for a dry run, which sends nothing).
    public func validate() throws {
        _ = try PushEndpoint(url)
        let f = try from.map { try ConvertJob.day($0, option: "--from") }
        let t = try to.map { try ConvertJob.day($0, option: "--to") }
        if let f, let t, f > t { throw UsageError("--from", "--from \(from!) is after --to \(to!)") }
        guard (1...64).contains(concurrency) else { throw UsageError("--concurrency", "--concurrency must be from 1 to 64") }
        guard (1...100).contains(maxAttempts) else { throw UsageError("--max-attempts", "--max-attempts must be from 1 to 100") }
        // FoundationNetworking times a request out at once below a second (it keeps whole seconds).
        guard timeout > 0 else { throw UsageError("--timeout", "--timeout must be a positive number of seconds (from 1 to 3600)") }
        guard timeout >= 1, timeout <= 3600 else { throw UsageError("--timeout", "--timeout must be from 1 to 3600 seconds") }
        if storePath.isEmpty { throw UsageError("--store", "--store needs a file name") }
        if let d = payloadsDir, d.isEmpty { throw UsageError("--payloads", "--payloads needs a folder") }
        if person.isEmpty { throw UsageError("--person", "--person needs a non-empty id") }
        if let file = apiKeyFile, file.isEmpty { throw UsageError("--api-key-file", "--api-key-file needs a file name") }
        if !dryRun, apiKeyFile == nil, (environment[APIKey.environmentName] ?? "").isEmpty {
            throw UsageError(
                "--api-key-file",
                "give the API key in a file (--api-key-file FILE, mode 0600) or in the environment variable \(APIKey.environmentName); it is never taken from the command line"
            )
        }
    }
}
