import Foundation

/// Opening an existing store for `people`, `gdpr-export` and `erase`, which must never create
/// one (HealthStore creates a store where there is none), with store failures read as input
/// failures: one sentence naming the file, exit status 1.
enum StoreAccess {
    static func open(_ path: String) throws -> HealthStore {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: path, message: "no store here (convert writes one)")
        }
        guard !isDirectory.boolValue else { throw InputError(file: path, message: "is a folder, not a store; give the store's file") }
        return try mapped { try HealthStore(path: path) }
    }

    static func mapped<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as StoreError { throw InputError(file: e.path, message: e.message) }
    }

    /// The sentence for a person the store does not hold.
    static func missing(_ person: String, in path: String) -> InputError {
        InputError(
            file: path, message: "holds no data of the person \"\(person)\" (health-import people --store \(path) lists who it holds)")
    }
}
