import Foundation

/// The bodies a person's `receive` took, written out as input files for the existing `convert`
/// and `compare` code paths: one file a body, in the order received (a later sync of a date is
/// read after an earlier one), in a private temporary folder (0700, files 0600) that `remove`
/// deletes. The readers then treat them as any other inputs: the app's bodies are payload JSON
/// (the native side), HAE's bodies Health Auto Export JSON.
///
/// A body the readers cannot read (one an earlier `receive` took before it checked bodies as the
/// readers read them, or one written into the store by hand) never stops the run: it is read
/// first on its own, and when its reader refuses it, it is left out and named in `skipped`
/// (docs/receive.md, "Reading what was received").
public struct ReceivedInputs: Sendable {
    public let folder: String
    /// The app's bodies (`POST /sync/healthkit`), oldest first.
    public let app: [String]
    /// Health Auto Export's bodies (`POST /hae`), oldest first.
    public let hae: [String]
    /// The bodies left out because their reader cannot read them, oldest first.
    public let skipped: [Unreadable]
    /// Each file's name for messages (`received body 7 (POST /hae, received …)`): a temporary
    /// file's path means nothing to the person.
    let labels: [String: String]

    public var isEmpty: Bool { app.isEmpty && hae.isEmpty }

    /// A stored body that cannot be read, and why.
    public struct Unreadable: Sendable, Equatable {
        public let id: Int64
        public let person: String
        public let endpoint: ReceiveEndpoint
        public let receivedAt: String
        public let reason: String

        /// One sentence: which body (id, time received, endpoint) and why it is left out.
        public var sentence: String {
            "received body \(id) (POST \(endpoint.path), received \(receivedAt)) cannot be read and is skipped: \(reason)"
        }
    }

    /// Writes out every body `person` has in the store at `storePath` (read as a WAL reader, so
    /// a `receive` writing the store meanwhile is neither blocked nor blocking), each one
    /// checked by its reader first.
    public static func materialize(storePath: String, person: String) throws -> ReceivedInputs {
        let store = try openStore(storePath)
        // Beside the store (a hidden folder), not in /tmp, which is memory on many systems: a
        // person's bodies can be hundreds of MB. The system's temporary folder only when the
        // store's folder cannot be written (a store another account's receive owns).
        let temporary = NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
        var made: String?
        for pattern in [Self.scratchFolder(storePath) + "/.health-import-received-XXXXXX", temporary + "/health-import-received-XXXXXX"] {
            var template = Array(pattern.utf8CString)
            if let p = mkdtemp(&template) {
                made = String(cString: p)
                break
            }
        }
        guard let folder = made else {
            throw OutputError(
                file: NSTemporaryDirectory(), message: "cannot create a private temporary folder: \(String(cString: strerror(errno)))")
        }
        do {
            var app: [String] = [], hae: [String] = [], skipped: [Unreadable] = [], labels: [String: String] = [:]
            try store.forEachReceivedBody(person: person) { body in
                let id = body.id
                guard let endpoint = body.endpoint.flatMap(ReceiveEndpoint.init(rawValue:)) else { return }
                let receivedAt = body.receivedAt ?? "at an unknown time"
                // Named for the body: a reader's skipped-item examples name a body's file by its name.
                let file = folder + "/" + String(format: "received-body-%010lld-%@.json", id, endpoint == .app ? "app" : "hae")
                let bytes = body.bytes
                try write(file, bytes)
                // The body's moment is when it was received: the HAE reader bounds its data by its
                // file's time (docs/rules.md, "The export moment"), as it did when `receive`
                // checked the body, so the same datums are left out whenever it is read.
                if let moment = Self.moment(receivedAt) {
                    try? FileManager.default.setAttributes([.modificationDate: moment], ofItemAtPath: file)
                }
                if let reason = problem(endpoint, bytes, file: file) {
                    unlink(file)
                    skipped.append(Unreadable(id: id, person: person, endpoint: endpoint, receivedAt: receivedAt, reason: reason))
                    return
                }
                labels[file] = "received body \(id) (POST \(endpoint.path), received \(receivedAt))"
                if endpoint == .app { app.append(file) } else { hae.append(file) }
            }
            return ReceivedInputs(folder: folder, app: app, hae: hae, skipped: skipped, labels: labels)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Every person's bodies in the store that their reader cannot read, oldest first: what
    /// `receive` reports when it starts. Each body is read on its own, one at a time.
    public static func unreadable(storePath: String) throws -> [Unreadable] {
        let store = try openStore(storePath)
        var out: [Unreadable] = []
        try store.forEachReceivedBody(person: nil) { body in
            guard let endpoint = body.endpoint.flatMap(ReceiveEndpoint.init(rawValue:)) else { return }
            if let reason = problem(endpoint, body.bytes, file: nil, folder: Self.scratchFolder(storePath)) {
                out.append(
                    Unreadable(
                        id: body.id, person: body.person ?? "?", endpoint: endpoint, receivedAt: body.receivedAt ?? "at an unknown time",
                        reason: reason))
            }
        }
        return out
    }

    /// Why the readers cannot read a stored body, or nil when they can: the same reading
    /// `receive` does before it acknowledges a body (`ReceivedBodyReading`), without the dates'
    /// rule (a date that was tomorrow when received is today's now). `file`: the body written
    /// out already (the HAE reader reads files), else it is written to a temporary one.
    static func problem(_ endpoint: ReceiveEndpoint, _ bytes: [UInt8], file: String?, folder: String? = nil) -> String? {
        // `compare` tells payload JSON from HAE JSON by the first bytes: a body of one kind sent to
        // the other's endpoint would be read on the wrong side.
        if PayloadSniffer.isPayload(Array(bytes.prefix(65_536))) != (endpoint == .app) {
            return endpoint == .app ? "it is not the app's payload JSON" : "it is payload JSON, not a Health Auto Export body"
        }
        let result: Result<[String], BodyProblem>
        if endpoint == .hae, let file {
            result = ReceivedBodyReading.hae(file: file, dates: nil)
        } else {
            result = BorrowedBytes.lending(bytes) { ReceivedBodyReading.read($0, endpoint: endpoint, dates: nil, folder: folder) }
        }
        if case .failure(let problem) = result { return problem.message }
        return nil
    }

    /// What a file of the folder is, for messages; the path itself for any other.
    public func label(_ path: String) -> String { labels[path] ?? path }

    /// `error` with a body's file named as the body it is.
    public func naming(_ error: Error) -> Error {
        guard var e = error as? InputError, let label = labels[e.file] else { return error }
        e.file = label
        return e
    }

    /// Deletes the folder and its files.
    public func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// Where a store's bodies' scratch copies go (beside a store file).
    static func scratchFolder(_ storePath: String) -> String { StoreAccess.scratchFolder(storePath) }

    private static func openStore(_ storePath: String) throws -> any StoredBodies {
        guard StoreAccess.exists(storePath) else {
            throw InputError(file: storePath, message: "no store here (convert or receive writes one)")
        }
        return try StoreAccess.open(storePath)
    }

    /// `2026-11-26T17:50:01.250Z`, as `ReceivedBodyStore` writes `received_at`.
    static func moment(_ receivedAt: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: receivedAt)
    }

    private static func write(_ file: String, _ bytes: [UInt8]) throws {
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw OutputError(file: file, message: "cannot create: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        do {
            try POSIXFile.writeAll(fd, bytes)
        } catch {
            throw OutputError(file: file, message: "cannot write: \(error.reason)")
        }
    }
}
