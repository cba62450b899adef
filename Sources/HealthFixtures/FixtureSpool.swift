import ExportParser
import Foundation

/// One section of a fixture file (the step records, the workouts, one HAE metric's datums),
/// collected while the dates are generated and copied into the file at the end, when every
/// section is complete and their order can be kept. A small fixture keeps its sections in
/// memory; a `--scale` one in files beside the output, so memory stays the same whatever the
/// size. Such a file is unlinked as soon as it is open: nothing is left behind, whatever
/// happens to the run.
final class FixtureSpool {
    /// Where a fixture's sections wait.
    enum Place {
        case memory
        /// Files in the folder of this output file.
        case files(beside: String)
        /// Nowhere: only their size is counted (`FixtureScale` measures a few dates).
        case counted
    }

    private var buffer: [UInt8] = []
    private var fd: Int32 = -1
    private var keeps = true
    private let path: String
    /// Bytes appended so far.
    private(set) var count: Int64 = 0
    /// What a file-backed spool holds before it writes: large enough for few system calls, small
    /// enough that fifty sections stay near 13 MB.
    static let bufferSize = 1 << 18

    init(_ place: Place, number: Int) throws {
        switch place {
        case .memory:
            path = "(memory)"
        case .counted:
            path = "(counted)"
            keeps = false
        case .files(let beside):
            path = OutputFiles.temporaryName(for: beside) + "-\(number)"
            unlink(path)
            fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw OutputError(file: path, message: "cannot create: \(String(cString: strerror(errno)))") }
            unlink(path)
            buffer.reserveCapacity(Self.bufferSize)
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    func append(_ bytes: some Collection<UInt8>) throws {
        count += Int64(bytes.count)
        guard keeps else { return }
        buffer.append(contentsOf: bytes)
        if fd >= 0, buffer.count >= Self.bufferSize { try flush() }
    }

    private func flush() throws {
        try OutputFiles.writeAll(fd, buffer, path: path)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Appends everything this section holds to `out`.
    func drain(into out: OutputFiles.Staged) throws {
        precondition(keeps, "a counted section holds nothing to write")
        guard fd >= 0 else {
            try out.append(bytes: buffer)
            return
        }
        try flush()
        try out.append(contentsOf: fd, count: count, sourcePath: path)
    }
}
