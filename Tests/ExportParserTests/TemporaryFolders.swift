import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folders the test helpers make under the system's temporary directory
/// (`TestPaths.temporaryDirectory`, `StoreTestSupport.temporaryDirectory`), removed when the test
/// process exits. Most callers never removed theirs: one `swift test` left about 1 GB of payloads
/// and stores in /tmp, and a development machine had gathered 65 GB of them. A test that fails no
/// longer leaves its folder; a process that is killed still does.
///
/// The first folder registers an `atexit` handler (the test runner exits through `exit`, on
/// Linux and macOS alike), which removes them all.
// @unchecked Sendable: `folders` is only read and written under `lock`.
final class TemporaryFolders: @unchecked Sendable {
    static let shared: TemporaryFolders = {
        atexit { TemporaryFolders.shared.removeAll() }
        return TemporaryFolders()
    }()

    private let lock = NSLock()
    private var folders: [URL] = []

    /// Makes a new folder `name` under the temporary directory and notes it for removal.
    func make(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        lock.lock()
        folders.append(url)
        lock.unlock()
        return url
    }

    private func removeAll() {
        lock.lock()
        let made = folders
        folders = []
        lock.unlock()
        for url in made { try? FileManager.default.removeItem(at: url) }
    }
}
