/// `complete` found that the store already holds this exact file (same sha256) for the person:
/// the import was rolled back and the store is unchanged.
struct AlreadyImported: Error, Sendable {
    var existing: StoredImport
}
