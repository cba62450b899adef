import CLibPQ
import Foundation

/// A thin owner of one libpq connection (`PGconn*`): connect, run a statement with bound
/// parameters, close. Every libpq call of the tool is here and in `PostgresResult`, as every
/// `sqlite3_*` call is in `SQLiteConnection` and `Statement`. Not thread-safe: its owner uses it
/// from one thread at a time (libpq's rule for a connection).
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the connection handle is
/// owned here and closed in `deinit` with `PQfinish`; the keywords, values and parameters are
/// C strings made for the call (`strdup`) and freed after it, and a `.bytes` parameter is the
/// caller's buffer, read by libpq only during `PQexecParams`.
// @unchecked Sendable: handed between threads by its owner's lock, used by one at a time.
final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The store as messages name it (the `--store` text, which never holds a password).
    let path: String

    /// `settings`: libpq's connection keywords (`host`, `port`, `user`, `dbname`, …). The
    /// password, when the server asks for one, is libpq's own business (PGPASSWORD, PGPASSFILE).
    init(settings: [PostgresLocation.Setting], shownAs path: String) throws {
        self.path = path
        let keys = settings.map { strdup($0.keyword) } + [nil]
        let values = settings.map { strdup($0.value) } + [nil]
        defer {
            for p in keys + values { free(p) }
        }
        let made: OpaquePointer? = keys.map { UnsafePointer($0) }.withUnsafeBufferPointer { k in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { v in PQconnectdbParams(k.baseAddress, v.baseAddress, 0) }
        }
        guard let made else { throw StoreError(path: path, message: "cannot connect: libpq is out of memory") }
        guard PQstatus(made) == CONNECTION_OK else {
            let message = Self.oneLine(String(cString: PQerrorMessage(made)))
            PQfinish(made)
            throw StoreError(path: path, message: "cannot connect to PostgreSQL: \(message)")
        }
        handle = made
    }

    deinit { PQfinish(handle) }

    /// Why libpq cannot read a connection URL (its own sentence).
    struct UnreadableURL: Error {
        let message: String
    }

    /// The keywords and values a connection URL sets, as libpq reads it (`PQconninfoParse`):
    /// only those the text gives, not libpq's defaults.
    static func parse(_ url: String) throws -> [PostgresLocation.Setting] {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &error) else {
            let message = error.map { oneLine(String(cString: $0)) } ?? "libpq is out of memory"
            if let error { PQfreemem(error) }
            throw UnreadableURL(message: message)
        }
        defer { PQconninfoFree(options) }
        var out: [PostgresLocation.Setting] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                out.append(PostgresLocation.Setting(keyword: String(cString: keyword), value: String(cString: value)))
            }
            option += 1
        }
        return out
    }

    /// Whether the connection is still up (false after the server went away).
    var isUp: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether the server sent anything while the connection was idle between statements. Only
    /// its end does here (a restart, a failover, `pg_terminate_backend`: a FATAL message, then
    /// the socket closed), which libpq notices only at the next statement, failing it. Asked
    /// without waiting (`poll` with no timeout), so a pool can connect again before handing the
    /// connection out. The rare message a live server also sends unasked (a changed setting's
    /// report after a reload) costs one needless reconnect.
    var heardWhileIdle: Bool {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return true }
        var probe = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&probe, 1, 0) != 0
    }

    /// Connects again with the same settings (after the server restarted).
    func reconnect() { PQreset(handle) }

    /// Runs one statement with its parameters bound (`$1`, `$2`, …); `binaryResult` asks for
    /// every column in binary form (a `bytea` as its bytes).
    @discardableResult
    func run(_ sql: String, _ parameters: [PostgresValue] = [], binaryResult: Bool = false) throws -> PostgresResult {
        var values: [UnsafePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        var owned: [UnsafeMutablePointer<CChar>?] = []
        defer {
            for p in owned { free(p) }
        }
        for parameter in parameters {
            switch parameter {
            case .text(let text):
                let p = text.map { strdup($0) } ?? nil
                owned.append(p)
                values.append(UnsafePointer(p))
                lengths.append(0)
                formats.append(0)
            case .int(let n):
                let p = strdup(String(n))
                owned.append(p)
                values.append(UnsafePointer(p))
                lengths.append(0)
                formats.append(0)
            case .bytes(let buffer):
                // An empty buffer has no address; libpq needs a non-null pointer for a non-null value.
                values.append(buffer.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) } ?? UnsafePointer(strdup("")))
                if buffer.baseAddress == nil { owned.append(UnsafeMutablePointer(mutating: values.last!)) }
                lengths.append(Int32(buffer.count))
                formats.append(1)
            }
        }
        let result = PQexecParams(handle, sql, Int32(parameters.count), nil, values, lengths, formats, binaryResult ? 1 : 0)
        guard let result else { throw StoreError(path: path, message: Self.oneLine(String(cString: PQerrorMessage(handle)))) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = Self.oneLine(String(cString: PQresultErrorMessage(result)))
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            PQclear(result)
            throw StoreError(path: path, message: message.isEmpty ? "the connection to PostgreSQL was lost" : message, sqlState: state)
        }
        return PostgresResult(result)
    }

    /// libpq's messages end in a line feed and may run over lines: one sentence for ours.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
