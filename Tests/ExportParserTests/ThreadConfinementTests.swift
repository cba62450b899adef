import Foundation
import XCTest

@testable import ExportParser

/// The owner-thread rule: the thread that claimed an object owns it, another does not until it
/// claims it at a hand-over point. (A check from a thread that does not own the object traps;
/// a trap cannot be caught in a test, so the test asks the same question `check` asks.)
final class ThreadConfinementTests: XCTestCase {
    func testOwnerIsTheClaimingThreadUntilAHandOver() {
        let c = ThreadConfinement()
        XCTAssertTrue(c.isOwnedByCurrentThread, "nobody has claimed it: the first use may")
        c.claim()
        XCTAssertTrue(c.isOwnedByCurrentThread)
        let seen = Box<[Bool]>([])  // written by the worker before it signals, read after the wait
        let done = DispatchSemaphore(value: 0)
        let t = Thread {
            seen.value!.append(c.isOwnedByCurrentThread)
            c.claim()  // the hand-over: the worker takes it
            seen.value!.append(c.isOwnedByCurrentThread)
            done.signal()
        }
        t.start()
        done.wait()
        #if DEBUG
            XCTAssertEqual(seen.value?.first, false)
            XCTAssertFalse(c.isOwnedByCurrentThread, "the worker owns it now")
        #endif
        XCTAssertEqual(seen.value?.last, true)
        c.claim()
        XCTAssertTrue(c.isOwnedByCurrentThread)
    }

    /// The store's connection is handed to the import's writer thread and back: a whole import
    /// runs with the checks on (debug builds) and ends owned by the caller again.
    func testAnImportHandsTheConnectionBackToTheCaller() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let store = try HealthStore(path: dir.appendingPathComponent("health.sqlite").path)
        _ = try StoreTestSupport.run(store, StoreTestSupport.meta(sha: "1")) { s in
            s.sample(StoreTestSupport.steps("2024-01-01 10:00:00 +0100", "2024-01-01 10:10:00 +0100", 100))
        }
        XCTAssertTrue(store.db.confinement.isOwnedByCurrentThread)
    }
}
