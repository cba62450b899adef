/// `complete` found that the store already holds this exact file (same sha256) for the person:
/// the import was rolled back and the store is unchanged.
public struct AlreadyImported: Error, Sendable {
    public var existing: StoredImport
}
