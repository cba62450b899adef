import Foundation

/// A received body as a file for the length of one call: the HAE reader reads files (`pread` in
/// 256 KiB chunks, on two threads), so the body is written to a private temporary file (0600,
/// created exclusively) that is removed as soon as the reading is done. The reader's memory
/// stays that of its chunks, whatever the body's size. `receive` writes it beside its store (a
/// hidden name in the store's folder), not to /tmp, which is memory (tmpfs) on many systems: a
/// 200 MB body would cost another 200 MB of memory there.
enum TemporaryBody {
    struct Failure: Error {
        let reason: String
    }

    /// Calls `body` with the path of a file holding `bytes`, in `folder` (nil: the system's
    /// temporary folder), and removes the file. `modified`: the file's time, the moment the HAE
    /// reader bounds its data by (docs/rules.md, "The export moment"): the time the body was
    /// received, as when a stored body is read back (`ReceivedInputs`).
    static func withFile<T>(_ bytes: BorrowedBytes, in folder: String?, modified: Date? = nil, _ body: (String) throws -> T) throws
        -> T
    {
        let pattern: String
        if let folder {
            pattern = folder + "/.health-import-body-XXXXXX"
        } else {
            let temporary = NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
            pattern = temporary + "/health-import-body-XXXXXX"
        }
        var template = Array(pattern.utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw Failure(reason: "no temporary file: \(String(cString: strerror(errno)))") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        do {
            defer { close(fd) }
            fchmod(fd, 0o600)
            try POSIXFile.writeAll(fd, bytes)
        } catch {
            throw Failure(reason: "the temporary file could not be written: \(error.reason)")
        }
        if let modified { try? FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
        return try body(path)
    }
}
