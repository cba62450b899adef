/// A fatal problem with an input: the run stops, nothing in `--out` is replaced.
public struct InputError: UserFacingError {
    var file: String
    var location: InputLocation?
    var message: String
    package init(file: String, location: InputLocation? = nil, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }
    public var description: String {
        if let location, !location.description.isEmpty { return "\(file): \(location): \(message)" }
        return "\(file): \(message)"
    }
}
