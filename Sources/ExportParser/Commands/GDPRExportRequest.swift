/// What a `gdpr-export` run was asked to do: everything `storePath` holds about `person`, as a
/// folder at `outPath`, or one zip when it ends in `.zip`.
public struct GDPRExportRequest: Sendable {
    public var storePath: String
    public var person: String
    public var outPath: String

    public init(storePath: String, person: String, outPath: String) {
        self.storePath = storePath
        self.person = person
        self.outPath = outPath
    }

    /// A zip rather than a folder.
    public var isZip: Bool { outPath.lowercased().hasSuffix(".zip") }
}
