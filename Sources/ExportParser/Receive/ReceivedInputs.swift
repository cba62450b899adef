import Foundation

/// The bodies a person's `receive` took, written out as input files for the existing `convert`
/// and `compare` code paths: one file a body, in the order received (a later sync of a date is
/// read after an earlier one), in a private temporary folder (0700, files 0600) that `remove`
/// deletes. The readers then treat them as any other inputs: the app's bodies are payload JSON
/// (the native side), HAE's bodies Health Auto Export JSON.
public struct ReceivedInputs: Sendable {
    public let folder: String
    /// The app's bodies (`POST /sync/healthkit`), oldest first.
    public let app: [String]
    /// Health Auto Export's bodies (`POST /hae`), oldest first.
    public let hae: [String]

    public var isEmpty: Bool { app.isEmpty && hae.isEmpty }

    /// Writes out every body `person` has in the store at `storePath` (read as a WAL reader, so
    /// a `receive` writing the store meanwhile is neither blocked nor blocking).
    public static func materialize(storePath: String, person: String) throws -> ReceivedInputs {
        guard FileManager.default.fileExists(atPath: storePath) else {
            throw InputError(file: storePath, message: "no store here (convert or receive writes one)")
        }
        let store = try HealthStore(path: storePath)
        var template = Array((NSTemporaryDirectory() + "/health-import-received-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw OutputError(
                file: NSTemporaryDirectory(), message: "cannot create a private temporary folder: \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: made)
        do {
            var app: [String] = [], hae: [String] = []
            let s = try store.db.prepare("SELECT id, endpoint, body FROM received_bodies WHERE person = ?1 ORDER BY id")
            s.bind(1, person)
            while try s.step() {
                let id = s.int(0)
                guard let endpoint = s.text(1).flatMap(ReceiveEndpoint.init(rawValue:)) else { continue }
                let file = folder + "/" + String(format: "%010lld-%@.json", id, endpoint == .app ? "app" : "hae")
                try write(file, s.blob(2))
                if endpoint == .app { app.append(file) } else { hae.append(file) }
            }
            return ReceivedInputs(folder: folder, app: app, hae: hae)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Deletes the folder and its files.
    public func remove() { try? FileManager.default.removeItem(atPath: folder) }

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
