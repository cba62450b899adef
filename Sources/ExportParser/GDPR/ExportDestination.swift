import Foundation

/// Where a `gdpr-export` goes: a folder or a zip. Files are written one after the other, each
/// from `begin` to `end` in pieces, then `finish` puts the whole export at its path at once; on
/// any failure `discard` removes every trace, so no partial export is ever left.
protocol ExportDestination: AnyObject {
    func begin(_ name: String) throws
    func write(_ bytes: UnsafeRawBufferPointer) throws
    func end() throws
    func finish() throws
    func discard()
}

enum ExportPaths {
    /// A hidden sibling of `path` that the export is written under until it is complete.
    static func temporary(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
    }

    /// Renames the finished export into place, refusing to replace anything that appeared at
    /// `path` meanwhile (rename would silently replace a file or an empty folder).
    static func moveIntoPlace(_ temporary: String, _ path: String) throws {
        var st = stat()
        guard lstat(path, &st) != 0 else { throw InputError(file: path, message: "appeared while the export was written; the export was not put there") }
        guard rename(temporary, path) == 0 else {
            throw InputError(file: path, message: "cannot put the export there: \(String(cString: strerror(errno)))")
        }
    }
}

/// A folder of files, 0700, each file 0600.
final class ExportFolder: ExportDestination {
    let path: String
    private let temporary: String
    private var fd: Int32 = -1
    private var current = ""

    init(_ path: String) throws {
        self.path = path
        temporary = ExportPaths.temporary(for: path)
        try? FileManager.default.removeItem(atPath: temporary)
        guard mkdir(temporary, 0o700) == 0 else {
            throw InputError(file: path, message: "cannot create the export folder: \(String(cString: strerror(errno)))")
        }
        chmod(temporary, 0o700)
    }

    deinit { discard() }

    func begin(_ name: String) throws {
        current = name
        fd = open(temporary + "/" + name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw InputError(file: path + "/" + name, message: "cannot create: \(String(cString: strerror(errno)))") }
        fchmod(fd, 0o600)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try OutputFiles.writeAll(fd, bytes, path: path + "/" + current)
    }

    func end() throws {
        let rc = close(fd)
        fd = -1
        if rc != 0 { throw InputError(file: path + "/" + current, message: "write failed: \(String(cString: strerror(errno)))") }
    }

    func finish() throws {
        try ExportPaths.moveIntoPlace(temporary, path)
    }

    func discard() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        try? FileManager.default.removeItem(atPath: temporary)
    }
}
