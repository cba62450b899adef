import Foundation
import Synchronization

#if canImport(Glibc)
    import CFileSystem
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file mapped read-only into memory (`mmap`, `PROT_READ`, `MAP_PRIVATE`): the window
/// read of export.xml (`ParallelSAXDriver`) lets its workers scan the page cache in place and copy
/// only the elements they keep, where reading copied all 3 GB of a long export into chunk buffers
/// first (the kernel's copy, 0.55–0.6 s of system time; docs/export-xml.md, "The window read").
///
/// Why this is safe (the invariant): the mapping is made once, of the `count` bytes `fstat` gave
/// for a regular file, and lives until this object's `deinit`; every chunk that points into it
/// holds the object (`Part`), so no pointer outlives the mapping (lifetime). Every pointer
/// handed out is inside `base ..< base + count` (`bytes(_:)` checks the range: bounds). The pages
/// are never written (`PROT_READ`; the scanner copies what it keeps), so threads may read them at
/// once and `release(_:)` may drop any page, even one another thread reads: it is faulted in again
/// from the file (exclusivity).
///
/// A file truncated by another process while it is mapped makes a read past its new end raise
/// `SIGBUS`, which ends the run (docs/export-xml.md, "The window read", "A file truncated while mapped"): the map is made only
/// of a regular file, only for `explain` and `compare` (which write their outputs by temporary
/// name and rename, so nothing half-written is left), and a read then would have given a damaged
/// document anyway.
// @unchecked Sendable: the mapping is immutable and read-only for its whole life.
final class MappedFile: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int

    /// Maps the whole of `fd`, or nil (the caller reads instead) when it is not a regular file,
    /// is empty, is on a network or user-space file system (`isLocal`), or cannot be mapped.
    /// `fd` may be closed afterwards: the mapping keeps the file.
    init?(fd: Int32) {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size > 0, Self.isLocal(fd) else { return nil }
        let size = Int(st.st_size)
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        base = UnsafeRawPointer(p)
        count = size
        // Read once, front to back: the kernel reads ahead further and maps more pages a fault.
        _ = madvise(p, size, MADV_SEQUENTIAL)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), count) }

    /// Whether `fd`'s file is on a file system whose failed page read is rare enough to map:
    /// a page that cannot be read raises `SIGBUS`, which ends the process, where `read` returns
    /// an error the reader reports in a sentence. A network or user-space file system (NFS,
    /// SMB, sshfs and other FUSE mounts, 9P, Ceph, AFS, Lustre…) can fail a read at any time,
    /// so such a file is read, not mapped. Unknown: read.
    static func isLocal(_ fd: Int32) -> Bool {
        var fs = statfs()
        guard fstatfs(fd, &fs) == 0 else { return false }
        #if os(Linux)
            return !isNetworkFileSystem(type: Int64(fs.f_type))
        #elseif canImport(Darwin)
            return fs.f_flags & UInt32(MNT_LOCAL) != 0
        #else
            return false
        #endif
    }

    /// Linux's `statfs.f_type` of network and user-space file systems (linux/magic.h and the
    /// file systems' own headers).
    static func isNetworkFileSystem(type: Int64) -> Bool {
        let networked: Set<Int64> = [
            0x6969,  // NFS
            0x517B,  // SMB
            0xFF53_4D42,  // CIFS
            0xFE53_4D42,  // SMB2
            0x6573_5546,  // FUSE (sshfs, virtiofs, rclone, …)
            0x0102_1997,  // 9P (V9FS)
            0x00C3_6400,  // Ceph
            0x5346_414F,  // AFS (OpenAFS)
            0x6B41_4653,  // AFS (kAFS)
            0x7375_7245,  // Coda
            0x564C,  // NCP
            0x0BD0_0BD0,  // Lustre
            0x0116_1970,  // GFS2
            0x7461_636F,  // OCFS2
            0x2003_0528,  // OrangeFS
            0x786F_4256,  // VirtualBox shared folders
        ]
        return networked.contains(type & 0xFFFF_FFFF)
    }

    /// The bytes of `range` (inside the file).
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "a range outside the mapped file")
        return UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// The bytes of `range` are read (a chunk is done with): its pages are dropped from this
    /// process (`MADV_DONTNEED`) with the done prefix of the file, `dropBatchBytes` at a time
    /// (`PageDropSchedule`, which says why). They stay in the page cache, and a read of them
    /// faults them in again. Without it every page scanned stays mapped, and the process's
    /// resident size grows to the file's (3 GB). A fault maps the pages of its whole 64 KiB
    /// block that are in the page cache (Linux's fault-around), some of them a neighbour's,
    /// which may have been dropped already: so whole blocks are dropped (dropping 5–15 % of the
    /// file's pages less was measured otherwise).
    func release(_ range: Range<Int>) {
        for r in drops.withLock({ $0.release(range) }) {
            let from = r.lowerBound, to = min(count, r.upperBound)
            guard to > from else { continue }
            _ = madvise(UnsafeMutableRawPointer(mutating: base + from), to - from, MADV_DONTNEED)
        }
    }

    /// Which pages `release` drops, and when (shared by the workers: under a lock; the
    /// `madvise` calls run outside it).
    private let drops = Mutex(PageDropSchedule(block: faultAroundBytes, batch: dropBatchBytes))

    /// Linux's default `fault_around_bytes` (a multiple of every page size in use).
    static let faultAroundBytes = 64 << 10
    /// 4 MiB: eight 512 KiB chunks a `madvise` (and a TLB flush). Resident beyond the chunks
    /// being read: up to a batch, the parts done ahead of a late one (`PageDropSchedule`), and
    /// the last partial batch until the map is closed.
    static let dropBatchBytes = 4 << 20

    /// Bytes of the file, holding the mapping alive while a chunk points into them.
    struct Part: @unchecked Sendable {
        let file: MappedFile
        let range: Range<Int>

        var bytes: UnsafeRawBufferPointer { file.bytes(range) }
    }
}
