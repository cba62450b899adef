import ExportParser
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix

/// What `receive` was asked to run.
public struct ReceiveOptions: Sendable {
    public var host: String
    public var port: Int
    public var maxBodyBytes: Int
    public var keys: ReceiveKeys
    public var storePath: String

    public init(host: String, port: Int, maxBodyBytes: Int, keys: ReceiveKeys, storePath: String) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.keys = keys
        self.storePath = storePath
    }
}

/// `health-import receive`: the HTTP server (Hummingbird 2 on SwiftNIO) in front of
/// `ReceivedBodyStore`. A request is answered 2xx only once its body is committed; SIGTERM and
/// SIGINT stop accepting, let the requests in flight finish, then return (swift-service-lifecycle).
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the collected body is lent
/// to `ReceivedBodyCheck` and `ReceivedBodyStore` inside `withUnsafeReadableBytes`, which both
/// use only during the call, so a body of up to --max-body is never copied.
public struct ReceiveServer: Sendable {
    let options: ReceiveOptions
    let bodies: any ReceivedBodyKeeping
    /// `GET /metrics` (`ReceiveMetrics`) and the request log (`ReceiveLog`, swift-log).
    let metrics = ReceiveMetrics()
    let log = ReceiveLog()
    /// The threads that check and commit bodies, off the event loop: as many as the machine
    /// has cores, and never fewer than a PostgreSQL store's connections, so that many commits
    /// can be in flight at once even on a small machine (NIO's shared pool has one a core).
    /// One pool for the process, started on first use and never shut down, as NIO's own
    /// singleton: every server of the process (the in-process tests make several) shares it.
    static let blocking: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(System.coreCount, StoreAccess.receiverConnections))
        pool.start()
        return pool
    }()

    public init(_ options: ReceiveOptions) throws {
        self.options = options
        bodies = try StoreAccess.keeper(options.storePath)
    }

    /// The application `run` serves: also what the in-process tests run (`InProcessReceiver`).
    public func application(onListening: @escaping @Sendable (Int) -> Void = { _ in }) -> some ApplicationProtocol {
        var logger = Logger(label: "health-import.receive")
        logger.logLevel = .warning
        return Application(
            responder: CallbackResponder<ReceiveContext> { request, context in
                await self.respond(request, context)
            },
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? options.port) },
            logger: logger)
    }

    /// Runs until SIGTERM or SIGINT; `onListening` gets the bound port (0 asks for a free one).
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let app = application(onListening: onListening)
        do {
            try await app.runService()
        } catch {
            // A port in use is one sentence, not SwiftNIO's bind error (`ListenError`).
            throw ListenError.from(error, host: options.host, port: options.port) ?? error
        }
    }

    func respond(_ request: Request, _ context: ReceiveContext) async -> Response {
        let started = ContinuousClock.now
        var person: String?
        var bytes = 0
        let response = await answer(request, context, person: &person, bytes: &bytes)
        let status = Int(response.status.code)
        log.request(person: person, method: request.method.rawValue, path: request.uri.path, status: status, bytes: bytes, started: started)
        metrics.request(path: request.uri.path, status: status)
        return response
    }

    private func answer(_ request: Request, _ context: ReceiveContext, person: inout String?, bytes: inout Int) async -> Response {
        let path = request.uri.path
        let endpoint = ReceiveEndpoint.allCases.first { $0.path == path }
        let open = ["/metrics", "/healthz"].contains(path)
        guard endpoint != nil || path == "/status" || open else { return Self.json(.notFound, ["error": "no such endpoint"]) }
        let wanted: HTTPRequest.Method = endpoint == nil ? .get : .post
        guard request.method == wanted else {
            var r = Self.json(.methodNotAllowed, ["error": "use \(wanted.rawValue) \(path)"])
            r.headers[.allow] = wanted.rawValue
            return r
        }
        // The operators' routes take no key: they say nothing of anyone's data (docs/receive.md).
        if path == "/metrics" { return metricsResponse() }
        if path == "/healthz" { return Self.json(.ok, ["status": "serving"]) }
        guard let who = options.keys.person(forKey: request.headers[.init("x-api-key")!]) else {
            return Self.json(.unauthorized, ["error": "missing or wrong x-api-key"])
        }
        person = who
        guard let endpoint else { return await status(for: who) }

        // Too large: refused on the declared length, before a byte of the body is read; the
        // connection's input is then shut so the rest is never read.
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > options.maxBodyBytes {
            return tooLarge(context)
        }
        let body: ByteBuffer
        do {
            // Collected up to the limit only: past it (a chunked body declares no length) the
            // collection stops at once.
            body = try await request.body.collect(upTo: options.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            return tooLarge(context)
        } catch {
            return Self.json(.badRequest, ["error": "the body could not be read"])
        }
        bytes = body.readableBytes
        let receivedAt = Date()
        let bodies = self.bodies
        let metrics = self.metrics
        // The HAE reader's copy of a body goes beside a store file (`TemporaryBody`).
        let scratchFolder = StoreAccess.scratchFolder(options.storePath)
        // The check (a reader over the whole body: seconds for 200 MB) and the commit (an fsync)
        // block their thread: they run on the receiver's blocking threads, not on the task that
        // serves the connection, so other requests go on meanwhile.
        let result: Result<ReceivedBodyCheck, any Error>
        do {
            result = try await Self.blocking.runIfActive {
                body.withUnsafeReadableBytes { raw in
                    let lent = BorrowedBytes(lentFor: raw)
                    let clock = ContinuousClock()
                    let checkStarted = clock.now
                    let checked = ReceivedBodyCheck.check(lent, endpoint: endpoint, now: receivedAt, scratchFolder: scratchFolder)
                    metrics.check(endpoint: endpoint.rawValue, took: clock.now - checkStarted)
                    switch checked {
                    case .failure(let problem): return .failure(problem)
                    case .success(let check):
                        return Result {
                            let commitStarted = clock.now
                            let kept = try bodies.keep(raw, endpoint: endpoint, person: who, check: check, receivedAt: receivedAt)
                            metrics.commit(endpoint: endpoint.rawValue, took: clock.now - commitStarted)
                            if case .stored = kept { metrics.stored(endpoint: endpoint.rawValue, bytes: raw.count) }
                            return check
                        }
                    }
                }
            }
        } catch {
            // The pool stopped: the server is shutting down.
            return Self.json(.serviceUnavailable, ["error": "the server is stopping; send it again"])
        }
        switch result {
        case .success(let check):
            // As the backend answers, with the time of this sync and what the readers leave out
            // of the body (docs/receive.md, "Endpoints").
            return Self.json(
                .ok, ["status": "accepted", "last_sync": ReceivedBodyStore.isoUTCMilliseconds(receivedAt), "warnings": check.warnings])
        case .failure(let problem as BodyProblem) where problem.isServerFault:
            log.failure("checking a body failed: \(problem.message)")
            return Self.json(.internalServerError, ["error": problem.message])
        case .failure(let problem as BodyProblem): return Self.json(.badRequest, ["error": problem.message])
        case .failure(let error):
            log.failure("storing a body failed: \(error)")
            return Self.json(.internalServerError, ["error": "the body could not be stored; send it again"])
        }
    }

    /// 413, and the connection's input shut at once: the rest of the body is never read (the
    /// kernel drops it). The connection itself is closed a second later, once the answer is on
    /// its way (closing it at once could reset it before the client has read the 413).
    private func tooLarge(_ context: ReceiveContext) -> Response {
        let channel = context.channel
        channel.close(mode: .input, promise: nil)
        channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
        var r = Self.json(.contentTooLarge, ["error": "the body is larger than --max-body (\(options.maxBodyBytes) bytes)"])
        r.headers[.connection] = "close"
        return r
    }

    /// A person's status. Read on the blocking threads as a commit is: the store's read can
    /// wait for a connection (all four busy with commits) or on the disk, and the task serving
    /// the request must not hold one of the few cooperative threads meanwhile.
    private func status(for person: String) async -> Response {
        do {
            let rows = try await Self.blocking.runIfActive { [bodies] in try bodies.status(person: person) }
            return Self.json(.ok, ["person": person, "sides": rows.map(\.json)])
        } catch {
            log.failure("reading the status failed: \(error)")
            return Self.json(.internalServerError, ["error": "the status could not be read"])
        }
    }

    /// Prometheus' text format (`ReceiveMetrics`).
    private func metricsResponse() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.text())))
    }

    static func json(_ status: HTTPResponse.Status, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
