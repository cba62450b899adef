import Foundation

/// Writes outputs so that a failed or interrupted run never leaves a half-written file: every
/// file goes to a temporary name in the same directory, then is renamed over the old one.
/// Files are created 0600 and directories 0700: this is health data.
///
/// The payloads and the CSV are not fsynced: a killed or failed run cannot tear them (rename is
/// atomic), they can always be made again from the export, and forcing a journal commit over a
/// thousand new files cost a third of an HAE run. The store, which is the data, keeps SQLite's
/// own durability.
package enum OutputFiles {
    package static func makeDirectory(_ path: String) throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw OutputError(file: path, message: "exists and is not a directory") }
            return
        }
        // A folder cannot be made under a file: say which file (Foundation's own message is
        // "NSCocoaErrorDomain error 512").
        if let shallowest = missingDirectories(path).last {
            let parent = URL(fileURLWithPath: shallowest).deletingLastPathComponent().path
            if FileManager.default.fileExists(atPath: parent, isDirectory: &isDir), !isDir.boolValue {
                throw OutputError(file: path, message: "cannot be created: it is under \(parent), which is a file, not a folder")
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw OutputError(file: path, message: "cannot create the directory: \(error.localizedDescription)")
        }
    }

    /// The folders `makeDirectory(path)` would create, deepest first (empty when `path` exists).
    package static func missingDirectories(_ path: String) -> [String] {
        var missing: [String] = []
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var st = stat()
        while url.path != "/", lstat(url.path, &st) != 0, errno == ENOENT || errno == ENOTDIR {
            missing.append(url.path)
            url = url.deletingLastPathComponent()
        }
        return missing
    }

    /// Removes the folders a failed run created (deepest first), each only when it is empty: a
    /// failed run leaves no new folder behind, and never removes anything that holds a file.
    package static func removeIfEmpty(_ directories: [String]) {
        for dir in directories { rmdir(dir) }
    }

    /// Creates `path` (which must not exist) with mode 0600 and writes `text`.
    static func writeNew(_ text: String, to path: String) throws {
        try writeNew(bytes: Array(text.utf8), to: path)
    }

    /// Creates `path` (which must not exist) with mode 0600 and writes `bytes`.
    static func writeNew(bytes: some ContiguousBytes, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw OutputError(file: path, message: "cannot create: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        fchmod(fd, 0o600)
        do {
            try writeAll(fd, bytes, path: path)
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Writes every byte, retrying short writes and interruptions (`POSIXFile.writeAll`); a
    /// failure names `path`.
    package static func writeAll(_ fd: Int32, _ bytes: some ContiguousBytes, path: String) throws {
        do {
            try POSIXFile.writeAll(fd, bytes)
        } catch {
            throw OutputError(file: path, message: "write failed: \(error.reason)")
        }
    }

    /// Replaces the directory `path` with a complete new one written by `fill` (into a temporary
    /// sibling), so readers see either the old set of files or the new one.
    package static func replaceDirectory(_ path: String, fill: (String) throws -> Void) throws {
        let tmp = temporaryName(for: path)
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        do {
            try fill(tmp)
        } catch {
            try? FileManager.default.removeItem(atPath: tmp)
            throw error
        }
        let old = temporaryName(for: path) + ".old"
        let hadOld = FileManager.default.fileExists(atPath: path)
        if hadOld {
            guard rename(path, old) == 0 else {
                throw OutputError(file: path, message: "cannot replace: \(String(cString: strerror(errno)))")
            }
        }
        guard rename(tmp, path) == 0 else {
            if hadOld { rename(old, path) }
            throw OutputError(file: path, message: "cannot replace: \(String(cString: strerror(errno)))")
        }
        if hadOld { try? FileManager.default.removeItem(atPath: old) }
    }

    /// A file written in pieces under a temporary name (0600) and renamed over `path` by
    /// `commit`, so a large output is never held in memory whole and never seen half-written.
    package final class Staged {
        let path: String
        let temporary: String
        private var fd: Int32
        private var buffer: [UInt8] = []

        package init(_ path: String) throws {
            self.path = path
            // A name no other process uses (`temporaryName`): never unlink one that exists, it
            // may be another worker's file in progress; O_EXCL refuses a clash instead.
            temporary = OutputFiles.temporaryName(for: path)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw OutputError(file: path, message: "cannot create: \(String(cString: strerror(errno)))") }
            fchmod(fd, 0o600)
            buffer.reserveCapacity(1 << 16)
        }

        deinit { discard() }

        /// Bytes appended so far: the offset the next byte will have in the file.
        package private(set) var size: Int64 = 0

        package func append(_ text: String) throws {
            buffer.append(contentsOf: text.utf8)
            size += Int64(text.utf8.count)
            if buffer.count >= 1 << 16 { try flush() }
        }

        package func append(bytes: some ContiguousBytes & Collection<UInt8>) throws {
            size += Int64(bytes.count)
            if buffer.count + bytes.count < 1 << 16 {
                buffer.append(contentsOf: bytes)
                return
            }
            // A large piece goes straight to the file rather than through the buffer.
            try flush()
            try OutputFiles.writeAll(fd, bytes, path: path)
        }

        /// Appends the first `count` bytes of the open file `source` (read from its start), in
        /// the kernel where it can (`FileCopy`).
        package func append(contentsOf source: Int32, count: Int64, sourcePath: String) throws {
            try flush()
            try FileCopy.copy(from: source, count: count, to: fd, sourcePath: sourcePath, path: path)
            size += count
        }

        /// Overwrites bytes already appended, at `offset` (a ZIP entry's sizes, known only after
        /// its data).
        package func patch(_ bytes: [UInt8], at offset: Int64) throws {
            precondition(offset >= 0 && offset + Int64(bytes.count) <= size, "patch outside what was written")
            try flush()
            do {
                try POSIXFile.writeAll(fd, bytes, at: offset)
            } catch {
                throw OutputError(file: path, message: "write failed: \(error.reason)")
            }
        }

        private func flush() throws {
            try OutputFiles.writeAll(fd, buffer, path: path)
            buffer.removeAll(keepingCapacity: true)
        }

        /// Writes what is buffered and renames the file into place.
        package func commit() throws {
            try flush()
            close(fd)
            fd = -1
            guard rename(temporary, path) == 0 else {
                let message = String(cString: strerror(errno))
                unlink(temporary)
                throw OutputError(file: path, message: "cannot replace the file: \(message)")
            }
        }

        /// Drops the temporary file (the run failed). Safe to call more than once.
        package func discard() {
            guard fd >= 0 else { return }
            close(fd)
            fd = -1
            unlink(temporary)
        }
    }

    /// `.NAME.tmp-<pid>-<16 random hex digits>` beside `path`: the random part because workers
    /// in containers sharing one `--out` have the same low PIDs.
    package static func temporaryName(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        let suffix = String(repeating: "0", count: 16 - random.count) + random
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(suffix)").path
    }
}
