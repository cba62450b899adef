/// A problem with the store (a SQLite file or a PostgreSQL database), as a sentence that names the file.
public struct StoreError: UserFacingError {
    var path: String
    var message: String
    /// The SQLite result code, when SQLite reported it.
    var code: Int32?
    /// PostgreSQL's SQLSTATE (`23505`, `40001`, …), when PostgreSQL reported it.
    var sqlState: String?
    init(path: String, message: String, code: Int32? = nil, sqlState: String? = nil) {
        self.path = path
        self.message = message
        self.code = code
        self.sqlState = sqlState
    }
    public var description: String { "\(path): \(message)" }
}
