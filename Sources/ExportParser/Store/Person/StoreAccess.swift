import Foundation

/// Opening an existing store for `people`, `gdpr-export`, `erase` and `explain --store`, which
/// must never create one (HealthStore creates a store where there is none). Every failure is a
/// `StoreError`: one sentence naming the file, exit status 1.
enum StoreAccess {
    static func open(_ path: String) throws -> HealthStore {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw StoreError(path: path, message: "no store here (convert writes one)")
        }
        guard !isDirectory.boolValue else { throw StoreError(path: path, message: "is a folder, not a store; give the store's file") }
        return try HealthStore(path: path)
    }

    /// The sentence for a person the store does not hold.
    static func missing(_ person: String, in path: String) -> StoreError {
        StoreError(
            path: path, message: "holds no data of the person \"\(person)\" (health-import people --store \(path) lists who it holds)")
    }
}
