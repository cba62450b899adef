import ArgumentParser
import ExportParser
import Foundation

struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send a person's daily payloads to the backend's sync endpoint, one day a request, as the app does.",
        discussion: """
            POST URL/sync/healthkit with the header x-api-key and the body {"data": [payload]} (one day; \
            --body bare sends the payload alone), after GET URL/sync/status (its last_healthkit_sync is \
            reported). The payloads are those convert stored (--store, --person) or the DATE.json files of \
            a folder (--payloads). Every day's end is recorded in the store, so a rerun sends only days \
            not accepted or changed since (--force: all). 429 and 503 wait as Retry-After says; other \
            5xx, time-outs and dropped connections back off exponentially up to --max-attempts; another \
            4xx fails that day only; 401/403 stops the run. The API key comes from --api-key-file \
            (mode 0600) or HEALTH_IMPORT_API_KEY, never from the command line. https:// only (http:// \
            to a loopback address). Exit status: 0 when every day was accepted or already sent, 1 when \
            not, 2 for bad usage.

            Examples:
              health-import push --url https://api.example.com --api-key-file ~/.health-import-key
              HEALTH_IMPORT_API_KEY=… health-import push --url https://api.example.com --store out/health.sqlite --person ann --from 2024-01-01
              health-import push --url https://api.example.com --payloads out/payloads --dry-run
            """
    )

    @Option(
        help: ArgumentHelp(
            "The backend's base URL (https://, or http:// to a loopback address). Example: --url https://api.example.com", valueName: "url")
    )
    var url: String

    @Option(
        help: ArgumentHelp(
            "File holding the API key, mode 0600 (default: the environment variable HEALTH_IMPORT_API_KEY). Example: --api-key-file ~/.health-import-key",
            valueName: "file"))
    var apiKeyFile: String?

    @Option(
        help: ArgumentHelp(
            "The SQLite store the payloads come from and where pushes are recorded (not PostgreSQL, which holds received data only). Example: --store out/health.sqlite",
            valueName: "file"))
    var store = "out/health.sqlite"

    @Option(help: ArgumentHelp("Whose payloads (default me). Example: --person ann", valueName: "id"))
    var person = "me"

    @Option(
        help: ArgumentHelp(
            "Send the YYYY-MM-DD.json files of this folder instead of the store's payloads (pushes are still recorded in --store). Example: --payloads out/payloads",
            valueName: "dir"))
    var payloads: String?

    @Option(help: ArgumentHelp("First date to send, YYYY-MM-DD. Example: --from 2024-01-01", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("Last date to send, YYYY-MM-DD, inclusive. Example: --to 2024-12-31", valueName: "date"))
    var to: String?

    @Option(
        help: ArgumentHelp(
            "wrapped: {\"data\": [payload]}, as the app sends it; bare: the payload alone. Example: --body bare", valueName: "kind"))
    var body: PushBody = .wrapped

    @Flag(help: "Send every date again, even those the store says were accepted with the same body.")
    var force = false

    @Flag(help: "Print the dates and sizes that would be sent; send nothing.")
    var dryRun = false

    @Flag(
        help:
            "Send the partial dates too: a date on which its input's export moment falls (an export made at 17:08 holds that day until 17:08). Left out by default, and said so."
    )
    var includePartial = false

    // `.unconditional`: a negative number is this option's value (then refused by `validate`
    // with the range), not an unknown option that leaves it "Missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Requests in flight at once. Example: --concurrency 2", valueName: "n"))
    var concurrency = 4

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Requests made for one day before it is given up. Example: --max-attempts 3", valueName: "n"))
    var maxAttempts = 6

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seconds a request may take before it is tried again. Example: --timeout 60", valueName: "seconds"))
    var timeout: Double = 30

    @Flag(help: "No progress display and no summary; errors are still printed.")
    var quiet = false

    func validate() throws {
        try CommandErrors.check { try request.validate() }
    }

    private var request: PushRequest {
        var r = PushRequest(
            url: url, apiKeyFile: apiKeyFile, storePath: store, person: person, payloadsDir: payloads, from: from, to: to,
            body: body, force: force, dryRun: dryRun, concurrency: concurrency,
            maxAttempts: maxAttempts, timeout: timeout)
        r.includePartial = includePartial
        return r
    }

    func run() throws {
        let outcome: PushOutcome
        do {
            let job = try PushJob(request)
            let display = ProgressDisplay(enabled: !quiet && !dryRun)
            job.progress = { display.show($0) }
            outcome = try job.run()
            display.clear()
        } catch let error as UserFacingError {
            throw CommandErrors.report(error, exitCode: 1)
        }
        if !quiet {
            for line in outcome.summaryLines() { print(line) }
        } else {
            for line in outcome.partialLines { CommandErrors.say(line) }
        }
        if let reason = outcome.stopReason { throw CommandErrors.report(PushError(reason), exitCode: 1) }
        if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
    }
}
