import ArgumentParser
import ExportParser
import Foundation
import Receiver

struct Receive: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Receive the app's daily payloads and Health Auto Export's automation bodies into the store, durably.",
        discussion: """
            POST /sync/healthkit takes the app's body ({"data": [payload, …]} or a payload), POST /hae a \
            Health Auto Export REST automation body; both need the header x-api-key. A body is committed \
            to the store (received_bodies) before the 200 {"status": "accepted", "last_sync": …, "warnings": \
            […]} is sent; the same body again is stored once. A body is first read as compare and convert \
            will read it (the payload reader, the HAE reader): one they cannot read, or data dated before \
            2014 or after tomorrow, is 400; a value they leave out (a negative count) is a warning. GET \
            /status (same key) tells per side the bodies received, the dates they cover and the last \
            body's time. Not JSON or not the endpoint's kind: 400; no or a wrong \
            key: 401; larger than --max-body: 413. One log line a request on stderr (no key, no health \
            value). SIGTERM or Ctrl-C: the requests in flight finish, then exit 0. compare --store and \
            convert --store FILE --received read what was received, also while receive runs. \
            docs/receive.md has the app's and HAE's settings and the 7-day routine.

            Examples:
              health-import receive --store ~/health/me.sqlite --api-key-file ~/.health-import-key
              health-import receive --store ~/health/family.sqlite --keys ~/.health-import-keys --listen 127.0.0.1:8080
            """
    )

    @Option(
        help: ArgumentHelp(
            "The store the bodies go into: a SQLite file (created if missing) or a PostgreSQL database, postgres://USER@HOST:PORT/DB (password from PGPASSWORD). Example: --store ~/health/me.sqlite",
            valueName: "file|url"))
    var store: String

    @Option(
        help: ArgumentHelp(
            "Address and port to listen on (default 127.0.0.1:8080; port 0: a free one). Another address than loopback needs TLS in front (docs/receive.md). Example: --listen 127.0.0.1:8080",
            valueName: "host:port"))
    var listen = "127.0.0.1:8080"

    @Option(
        help: ArgumentHelp(
            "File holding the one API key, mode 0600 (default: HEALTH_IMPORT_API_KEY), for --person. Example: --api-key-file ~/.health-import-key",
            valueName: "file"))
    var apiKeyFile: String?

    @Option(
        help: ArgumentHelp(
            "File of PERSON KEY lines, mode 0600: each key says whose data a request is. Example: --keys ~/.health-import-keys",
            valueName: "file"
        ))
    var keys: String?

    @Option(help: ArgumentHelp("Whose data the --api-key-file key sends (default me). Example: --person ann", valueName: "id"))
    var person = "me"

    @Option(
        help: ArgumentHelp(
            "Largest body taken, in MiB (1 MiB = 1,048,576 bytes; default 256). Example: --max-body 64", valueName: "MiB"))
    var maxBody = 256

    func validate() throws {
        if keys != nil && apiKeyFile != nil { throw ValidationError("--keys and --api-key-file exclude each other") }
        if keys != nil && person != "me" {
            throw ValidationError("--person goes with --api-key-file; with --keys each key names its person")
        }
        guard maxBody >= 1 && maxBody <= 4096 else { throw ValidationError("--max-body must be from 1 to 4096 (MiB)") }
        _ = try address()
    }

    func address() throws -> (host: String, port: Int) {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port)
        else {
            throw ValidationError("--listen \(listen): expected HOST:PORT, e.g. 127.0.0.1:8080")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("--listen \(listen): give the address too, e.g. 127.0.0.1:\(port)") }
        return (host, port)
    }

    func run() throws {
        let (host, port) = try address()
        let server: ReceiveServer
        do {
            let keyTable =
                try keys.map { try ReceiveKeys.file($0) }
                ?? ReceiveKeys.single(file: apiKeyFile, person: person, environment: ProcessInfo.processInfo.environment)
            server = try ReceiveServer(
                ReceiveOptions(host: host, port: port, maxBodyBytes: maxBody * 1024 * 1024, keys: keyTable, storePath: store))
        } catch let error as UserFacingError {
            throw CommandErrors.report(error, exitCode: 1)
        }
        if !["127.0.0.1", "::1", "localhost"].contains(host) {
            Self.say(
                "receive: WARNING: listening on \(host), not loopback: this server speaks plain HTTP, so terminate TLS in front of it (nginx or Caddy, docs/receive.md) and never expose it directly."
            )
        }
        let done = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task.detached {
            do {
                try await server.run { bound in
                    Self.say("receive: listening on http://\(host):\(bound) (store \(store))")
                    Self.reportUnreadable(store)
                }
            } catch {
                failure.set(error)
            }
            done.signal()
        }
        done.wait()
        if let error = failure.get() {
            Self.say("health-import: receive: \(error)")
            throw ExitCode(1)
        }
        Self.say("receive: stopped")
    }

    /// The bodies already in the store that their reader cannot read (taken before receive
    /// checked bodies as the readers read them, or written by hand), a line each, checked beside
    /// the running server so that it answers at once: compare and convert --received skip them.
    static func reportUnreadable(_ store: String) {
        Task.detached(priority: .background) {
            do {
                let found = try ReceivedInputs.unreadable(storePath: store)
                for body in found { say("receive: \(body.person): \(body.sentence)") }
                if !found.isEmpty {
                    say(
                        "receive: \(found.count) stored \(found.count == 1 ? "body" : "bodies") cannot be read: compare --store and convert --received skip \(found.count == 1 ? "it" : "them") and name \(found.count == 1 ? "it" : "them")"
                    )
                }
            } catch {
                say("receive: the stored bodies could not be checked: \(error)")
            }
        }
    }

    static func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
}

/// The server task's error, handed to the main thread.
final class FailureBox: @unchecked Sendable {
    // @unchecked Sendable: guarded by `lock`.
    private let lock = NSLock()
    private var error: (any Error)?
    func set(_ e: any Error) { lock.withLock { error = e } }
    func get() -> (any Error)? { lock.withLock { error } }
}
