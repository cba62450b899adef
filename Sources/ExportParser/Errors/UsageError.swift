/// An option or a combination of options that cannot work: `--timezone Mars/Base`, a `--from`
/// after the `--to`. The commands check these in their `validate()` (exit status 2) before
/// anything is read; the library checks them again for its other callers.
public struct UsageError: UserFacingError {
    /// The option it is about (`--from`), when one is.
    public var option: String?
    public var message: String
    package init(_ option: String?, _ message: String) {
        self.option = option
        self.message = message
    }
    public var description: String { message }
}
