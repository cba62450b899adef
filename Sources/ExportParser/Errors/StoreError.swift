/// A problem with the SQLite store, as a sentence that names the file.
public struct StoreError: UserFacingError {
    var path: String
    var message: String
    /// The SQLite result code, when SQLite reported it.
    var code: Int32?
    init(path: String, message: String, code: Int32? = nil) {
        self.path = path
        self.message = message
        self.code = code
    }
    public var description: String { "\(path): \(message)" }
}
