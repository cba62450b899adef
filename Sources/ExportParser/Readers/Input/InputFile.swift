import Foundation

/// Opens an input only when it is a regular file. A FIFO would block `open` until a writer came
/// (and `read` until it wrote), a directory or device is never an export: each gets its own
/// sentence instead. The file is opened non-blocking and checked with `fstat` on the descriptor
/// itself, so a path swapped for a FIFO between a check and the open cannot hang the run.
enum InputFile {
    /// A descriptor of the regular file at `path`, open for reading (blocking reads restored).
    static func openRegular(path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let err = errno
            switch err {
            case ENOENT: throw InputError(file: path, message: "no such file")
            case EACCES, EPERM: throw InputError(file: path, message: "cannot be opened for reading: permission denied")
            default: throw InputError(file: path, message: "cannot be opened for reading: \(String(cString: strerror(err)))")
            }
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let err = errno
            close(fd)
            throw InputError(file: path, message: "cannot be examined: \(String(cString: strerror(err)))")
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw InputError(file: path, message: describe(mode: st.st_mode))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Up to `count` bytes from the start of the regular file at `path`.
    static func head(path: String, count: Int) throws -> Data {
        let fd = try openRegular(path: path)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        do {
            let done = try POSIXFile.fill(&bytes, from: fd)
            return Data(bytes[..<done])
        } catch {
            throw InputError(file: path, location: InputLocation(byteOffset: Int64(error.done)), message: "read failed: \(error.reason)")
        }
    }

    private static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "is a directory, not an export file (give the export.zip, export.xml or .json inside it)"
        case S_IFIFO:
            return "is a FIFO (named pipe), not a regular file: health-import reads files only, so that it can never wait forever on a pipe"
        case S_IFSOCK: return "is a socket, not a regular file"
        case S_IFCHR, S_IFBLK: return "is a device, not a regular file"
        default: return "is not a regular file"
        }
    }
}
