import ExportParser
import Foundation

/// Writes a fixture's files: each to a temporary name (0600: the files look like health data,
/// and are treated like it) and renamed into place, so a reader never sees half a file.
enum FixtureFiles {
    static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = OutputFiles.temporaryName(for: path)
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw InputError(file: path, message: "cannot create: \(String(cString: strerror(errno)))") }
        fchmod(fd, 0o600)
        do {
            try OutputFiles.writeAll(fd, bytes, path: path)
            close(fd)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw InputError(file: path, message: "cannot replace the file: \(message)")
        }
    }
}
