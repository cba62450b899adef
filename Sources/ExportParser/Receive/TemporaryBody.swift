import Foundation

/// A received body as a file for the length of one call: the HAE reader reads files (`pread` in
/// 256 KiB chunks, on two threads), so the body is written to a private temporary file (0600,
/// created exclusively) that is removed as soon as the reading is done. The reader's memory
/// stays that of its chunks, whatever the body's size.
enum TemporaryBody {
    struct Failure: Error {
        let reason: String
    }

    static func withFile<T>(_ bytes: UnsafeRawBufferPointer, _ body: (String) throws -> T) throws -> T {
        let temporary = NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
        var template = Array((temporary + "/health-import-body-XXXXXX").utf8CString)
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
        return try body(path)
    }
}
