import Foundation
import XCTest

@testable import ExportParser

/// A test class that sets `ParseThreads` (how many parsing threads, how long a chunk) to read as
/// a case needs: each test leaves them at the machine's defaults for the next class.
class ParseThreadsTestCase: XCTestCase {
    override func tearDown() {
        ParseThreads.count = ProcessInfo.processInfo.activeProcessorCount
        ParseThreads.chunkBytes = ParseThreads.defaultChunkBytes
        super.tearDown()
    }
}
