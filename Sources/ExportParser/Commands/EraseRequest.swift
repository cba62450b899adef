/// What an `erase` run was asked: every row of `person` out of `storePath`, and where to keep
/// the receipt besides stdout.
public struct EraseRequest: Sendable {
    public var storePath: String
    public var person: String
    public var receiptPath: String?
    /// How long to wait for another process that is writing the store (tests shorten it).
    var busyTimeoutMilliseconds = HealthStore.busyTimeoutMilliseconds

    public init(storePath: String, person: String, receiptPath: String? = nil) {
        self.storePath = storePath
        self.person = person
        self.receiptPath = receiptPath
    }
}
