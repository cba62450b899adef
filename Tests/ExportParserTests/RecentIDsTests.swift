import XCTest

@testable import ExportParser

/// `RecentIDs` answers from the last two values and asks its caller to intern anything else.
final class RecentIDsTests: XCTestCase {
    func testTheLastTwoAreRecognisedAndAnythingElseInterned() {
        var table: [String] = []
        var interned = 0
        var recent = RecentIDs()
        func id(_ s: String) -> Int {
            recent.id(matching: { table[$0] == s }) {
                interned += 1
                if let i = table.firstIndex(of: s) { return i }
                table.append(s)
                return table.count - 1
            }
        }
        // A (interned, id 0), B (interned, 1), A and B (the last two: no interning).
        XCTAssertEqual([id("A"), id("B"), id("A"), id("B")], [0, 1, 0, 1])
        XCTAssertEqual(interned, 2)
        // C (interned, 2): the last two are now C and B, so A is looked up again (id 0).
        XCTAssertEqual([id("C"), id("B"), id("A")], [2, 1, 0])
        XCTAssertEqual(interned, 4)
    }
}
