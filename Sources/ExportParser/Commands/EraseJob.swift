import Foundation

/// The `erase` command: every row of one person out of every table (`PersonRows`) in one
/// transaction, then the deleted bytes out of the store's files (`PersonErasure` says how and why for SQLite,
/// `PostgresStore+Erasure` for PostgreSQL).
///
/// `init` opens the store and checks that it holds the person (so a missing one is an error
/// before anyone is asked to confirm); `run` erases.
public final class EraseJob {
    public let request: EraseRequest
    let store: any PersonStore

    public init(_ request: EraseRequest) throws {
        guard !request.person.isEmpty else { throw UsageError("--person", "--person needs a non-empty id") }
        // A receipt never replaces a file (an earlier receipt, or anything else by that name).
        var st = stat()
        if let receipt = request.receiptPath, lstat(receipt, &st) == 0 {
            throw OutputError(
                file: receipt, message: "already exists; --receipt writes a new file and never replaces one. Nothing was erased.")
        }
        self.request = request
        store = try StoreAccess.open(request.storePath)
        let unknown = try store.unknownTables()
        guard unknown.isEmpty else {
            throw StoreError(
                path: request.storePath,
                message:
                    "has tables this health-import does not know (\(unknown.joined(separator: ", "))), which could hold the person's data; nothing was erased. Use the health-import that wrote the store."
            )
        }
        guard try store.holds(person: request.person) else {
            throw StoreAccess.missing(request.person, in: request.storePath)
        }
    }

    public func run() throws -> EraseReceipt {
        let path = request.storePath
        // The receipt's file is created first: a path that cannot be written fails before anything is erased.
        let receiptFile = try request.receiptPath.map { try OutputFiles.Staged($0) }
        let deleted = try store.eraseRows(of: request.person, busyTimeoutMilliseconds: request.busyTimeoutMilliseconds)
        guard let deleted else { throw StoreAccess.missing(request.person, in: path) }
        let removed = deleted.map { EraseReceipt.Table(name: $0.table, rows: $0.rows) }
        let unfinished = store.scrub()
        let receipt = EraseReceipt(
            person: request.person, storePath: path, erasedAt: Date(), removed: removed, unfinished: unfinished, method: store.erasureMethod
        )
        if let receiptFile {
            try receiptFile.append(receipt.text)
            try receiptFile.commit()
        }
        return receipt
    }
}
