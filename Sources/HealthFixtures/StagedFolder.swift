import ExportParser
import Foundation

/// How `fixtures` replaces its files in `--out` all at once. Only the generator writes a folder
/// of many files this way, so it lives here rather than in the library's `OutputFiles`.
extension OutputFiles {
    /// Fills a staging folder inside `out` (`.health-import-staging-PID`), then moves each of its
    /// entries over the same name in `out`: files by rename (atomic), folders by moving the old
    /// one aside first. Nothing in `out` is touched until `fill` has written everything, and an
    /// entry whose kind differs from what is in `out` (a file where a folder goes) fails the run
    /// before anything moves. On failure the staging folder, and any folder made for `out`, is
    /// removed: `out` is as it was.
    static func stagedFolder<T>(_ out: String, fill: (String) throws -> T) throws -> T {
        let created = missingDirectories(out)
        let stage = out + "/.health-import-staging-\(getpid())"
        func discard() {
            try? FileManager.default.removeItem(atPath: stage)
            removeIfEmpty(created)
        }
        do {
            try makeDirectory(out)
            try? FileManager.default.removeItem(atPath: stage)
            guard mkdir(stage, 0o700) == 0 else {
                throw OutputError(file: out, message: "cannot create a staging folder in it: \(String(cString: strerror(errno)))")
            }
            let result = try fill(stage)
            let names = try FileManager.default.contentsOfDirectory(atPath: stage).sorted()
            func isDirectory(_ path: String) -> Bool? {
                var isDir: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) ? isDir.boolValue : nil
            }
            for name in names {
                let target = out + "/" + name
                if let existing = isDirectory(target), existing != isDirectory(stage + "/" + name) {
                    throw OutputError(
                        file: target,
                        message: "is a \(existing ? "folder" : "file") where a \(existing ? "file" : "folder") goes; nothing was replaced")
                }
            }
            for name in names {
                let source = stage + "/" + name, target = out + "/" + name
                let aside = stage + "/.old-" + name
                let folder = isDirectory(target) == true
                if folder, rename(target, aside) != 0 {
                    throw OutputError(file: target, message: "cannot replace: \(String(cString: strerror(errno)))")
                }
                guard rename(source, target) == 0 else {
                    if folder { rename(aside, target) }
                    throw OutputError(file: target, message: "cannot replace: \(String(cString: strerror(errno)))")
                }
            }
            try? FileManager.default.removeItem(atPath: stage)
            return result
        } catch {
            discard()
            throw error
        }
    }
}
