import Foundation

/// The sha256 of an input file, which identifies an import: the same bytes for the same person
/// are imported once.
enum FileDigest {
    /// Lowercase hex sha256 of the file's bytes, read in 4 MiB chunks (`SHA256`: the system's
    /// crypto library, SHA-NI where the CPU has it). Read, not mapped: a mapped file that
    /// shrinks while it is hashed (a synced export being rewritten) kills the process with
    /// SIGBUS, where a read just ends early.
    static func sha256(path: String) throws -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw InputError(file: path, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 4 << 20)
        while true {
            let n: Int
            do {
                n = try POSIXFile.fill(&buffer, from: fd)
            } catch {
                throw InputError(file: path, message: "cannot read: \(error.reason)")
            }
            hasher.update(data: buffer[..<n])
            if n < buffer.count { break }
        }
        return hex(hasher.finalize())
    }

    /// Lowercase hex of any bytes' sha256 (tests, small inputs).
    static func sha256(bytes: some Sequence<UInt8>) -> String {
        hex(SHA256.hash(data: Array(bytes)))
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for b in digest {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
