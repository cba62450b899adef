import Foundation
import XCTest

@testable import ExportParser

/// `FreedMemory.giveBack` between a run's phases: memory a finished reading thread freed stops
/// counting in the process's resident set.
final class FreedMemoryTests: XCTestCase {
    /// 64 MB in 64 KiB blocks (below glibc's mmap threshold, so they come from the thread's
    /// arena, as the readers' tapes and pieces do), touched, then freed on that thread: they stay
    /// resident until `giveBack`, which must return at least a quarter of them (16 MB). Measured:
    /// 30–64 MB returned (less in a full test run, whose earlier tests left arenas partly
    /// resident), 0 without the call.
    func testFreedPagesOfAFinishedThreadLeaveTheResidentSet() throws {
        #if !canImport(Glibc)
            throw XCTSkip("malloc_trim is glibc's")
        #else
            // Under a sanitizer its own allocator serves malloc: nothing of glibc's to trim.
            let this = dlopen(nil, RTLD_NOW)
            if dlsym(this, "__tsan_init") != nil || dlsym(this, "__asan_init") != nil {
                throw XCTSkip("a sanitizer's allocator replaces glibc's malloc")
            }
            let blocks = 1024, size = 64 << 10
            let done = DispatchSemaphore(value: 0)
            NamedThread.start("freed memory") {
                var held: [UnsafeMutableRawPointer] = []
                for _ in 0..<blocks {
                    let p = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
                    p.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size)
                    held.append(p)
                }
                for p in held { p.deallocate() }
                done.signal()
            }
            done.wait()
            let before = try Self.residentBytes()
            FreedMemory.giveBack()
            let after = try Self.residentBytes()
            // Handed back: before − after ≥ 16 MB (a quarter of 1,024 × 64 KiB = 64 MiB).
            XCTAssertGreaterThanOrEqual(before - after, 16 << 20, "resident \(before >> 20) MB → \(after >> 20) MB")
        #endif
    }

    /// Resident bytes of this process: the second field of /proc/self/statm, in pages.
    private static func residentBytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let fields = text.split(separator: " ")
        return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
