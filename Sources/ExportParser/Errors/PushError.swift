/// A push the backend stopped as a whole (the API key refused, a certificate not trusted): one
/// sentence, never holding the key.
public struct PushError: UserFacingError {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
