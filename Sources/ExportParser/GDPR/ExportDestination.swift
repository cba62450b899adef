import Foundation

/// Where a `gdpr-export` goes: a folder or a zip. Each file is written from `begin` to its
/// sink's `end` in pieces, then `finish` puts the whole export at its path at once; on any
/// failure `discard` removes every trace, so no partial export is ever left.
protocol ExportDestination: AnyObject {
    /// Whether several files can be written at once (a folder: each kind's JSON Lines and CSV
    /// in one pass over its rows) or only one after the other (a zip's entries).
    var writesFilesAtOnce: Bool { get }
    func begin(_ name: String) throws -> ExportFileSink
    func finish() throws
    func discard()
}

/// One file being written. Used from the export's writer thread (`ExportPipeline`).
protocol ExportFileSink: AnyObject {
    func write(_ chunk: ExportBytes) throws
    func end() throws
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
        guard lstat(path, &st) != 0 else {
            throw OutputError(file: path, message: "appeared while the export was written; the export was not put there")
        }
        guard rename(temporary, path) == 0 else {
            throw OutputError(file: path, message: "cannot put the export there: \(String(cString: strerror(errno)))")
        }
    }
}

/// A folder of files, 0700, each file 0600.
final class ExportFolder: ExportDestination {
    let path: String
    private let temporary: String
    private var open: [FolderFile] = []
    var writesFilesAtOnce: Bool { true }

    init(_ path: String) throws {
        self.path = path
        temporary = ExportPaths.temporary(for: path)
        try? FileManager.default.removeItem(atPath: temporary)
        guard mkdir(temporary, 0o700) == 0 else {
            throw OutputError(file: path, message: "cannot create the export folder: \(String(cString: strerror(errno)))")
        }
        chmod(temporary, 0o700)
    }

    deinit { discard() }

    func begin(_ name: String) throws -> ExportFileSink {
        let file = try FolderFile(temporary + "/" + name, shownAs: path + "/" + name)
        open.append(file)
        return file
    }

    func finish() throws {
        try ExportPaths.moveIntoPlace(temporary, path)
        open = []
    }

    func discard() {
        for file in open { file.close() }
        open = []
        try? FileManager.default.removeItem(atPath: temporary)
    }
}

/// One file of an export folder.
final class FolderFile: ExportFileSink {
    private var fd: Int32
    private let shown: String

    init(_ file: String, shownAs shown: String) throws {
        self.shown = shown
        fd = Foundation.open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw OutputError(file: shown, message: "cannot create: \(String(cString: strerror(errno)))") }
        fchmod(fd, 0o600)
    }

    deinit { close() }

    func write(_ chunk: ExportBytes) throws {
        try OutputFiles.writeAll(fd, chunk, path: shown)
    }

    func end() throws {
        guard fd >= 0 else { return }
        let rc = Foundation.close(fd)
        fd = -1
        if rc != 0 { throw OutputError(file: shown, message: "write failed: \(String(cString: strerror(errno)))") }
    }

    func close() {
        if fd >= 0 { Foundation.close(fd) }
        fd = -1
    }
}
