import Foundation
import XCTest

@testable import ExportParser

/// Every thread of the tool is started by `NamedThread`, which names it from inside so that the
/// system (perf, top -H) knows it: a name set on a `Thread` before `start` is Foundation's own.
final class NamedThreadTests: XCTestCase {
    func testTheSystemKnowsTheThreadByItsName() {
        let seen = Box<String>("")
        let done = DispatchSemaphore(value: 0)
        // "store writer" is 12 bytes, under Linux's 15.
        NamedThread.start("store writer") {
            seen.value = Self.systemName()
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(seen.value, "store writer")
    }

    func testTheStackSizeIsTheOneAsked() {
        let seen = Box<Int>(0)
        let done = DispatchSemaphore(value: 0)
        NamedThread.start("xml parser 1", stackSize: 4 << 20) {
            seen.value = Thread.current.stackSize
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        // 4 << 20 = 4,194,304 bytes.
        XCTAssertEqual(seen.value, 4_194_304)
    }

    /// The kernel's (or the system's) name of the calling thread.
    private static func systemName() -> String? {
        #if os(Linux)
            (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
        #else
            var buffer = [CChar](repeating: 0, count: 64)
            return pthread_getname_np(pthread_self(), &buffer, buffer.count) == 0 ? String(cString: buffer) : nil
        #endif
    }
}
