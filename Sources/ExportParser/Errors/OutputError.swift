/// A file or folder that cannot be written (permissions, a full disk, a file where a folder
/// should be). Nothing is half-written: outputs go to a temporary name first.
public struct OutputError: UserFacingError {
    public var file: String
    public var message: String
    package init(file: String, message: String) {
        self.file = file
        self.message = message
    }
    public var description: String { "\(file): \(message)" }
}
