import Foundation
import XCTest

@testable import ExportParser

/// A new store's file is handed to the kernel's writeback while it is built (`EarlyWriteback`):
/// a thread of its own, holding one descriptor of the file, both gone once it is finished, and
/// the store published from it as before.
final class EarlyWritebackTests: XCTestCase {
    private func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    private func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .newlines) }
    }

    /// Whether a thread named "store writeback" is seen within a second (it names itself as it
    /// starts).
    private func writebackThreadAppears() -> Bool {
        for _ in 0..<200 {
            if threadNames().contains("store writeback") { return true }
            usleep(5_000)
        }
        return false
    }

    /// Whether no thread named "store writeback" is left within a second: `finish` returns once
    /// the thread has closed its descriptor and signalled, and the thread exits a moment later
    /// (a clone without ../shared once saw it still listed right after).
    private func writebackThreadGone() -> Bool {
        for _ in 0..<200 {
            if !threadNames().contains("store writeback") { return true }
            usleep(5_000)
        }
        return false
    }

    func testTheThreadAndItsDescriptorLastUntilFinished() throws {
        #if os(Linux)
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ewb-\(getpid())-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("f").path
            XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(repeating: 7, count: 1 << 20)))
            let before = openDescriptors()
            let writeback = try XCTUnwrap(EarlyWriteback(path: file, interval: 0.01))
            // One descriptor more (the thread's), and a thread named "store writeback".
            XCTAssertEqual(openDescriptors(), before + 1)
            XCTAssertTrue(writebackThreadAppears())
            writeback.finish()
            writeback.finish()  // a second finish does nothing
            XCTAssertEqual(openDescriptors(), before)
            XCTAssertTrue(writebackThreadGone())
            // A file that cannot be opened: no thread at all.
            XCTAssertNil(EarlyWriteback(path: dir.appendingPathComponent("missing").path))
        #else
            throw XCTSkip("sync_file_range is Linux's")
        #endif
    }

    func testANewStoreIsPublishedWithItsRowsAndTheThreadGone() throws {
        #if os(Linux)
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ewb-\(getpid())-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let path = dir.appendingPathComponent("health.sqlite").path
            let store = try HealthStore(path: path)
            XCTAssertNotNil(store.creatingAt)
            XCTAssertTrue(writebackThreadAppears())
            try store.publishIfNew()
            XCTAssertNil(store.creatingAt)
            XCTAssertTrue(FileManager.default.fileExists(atPath: path))
            XCTAssertTrue(writebackThreadGone())
        #else
            throw XCTSkip("sync_file_range is Linux's")
        #endif
    }
}
