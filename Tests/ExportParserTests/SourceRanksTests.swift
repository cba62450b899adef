import XCTest

@testable import ExportParser

/// `SourceRanks` answers what `SourcePriority` answers, each source's worked out once a pass.
final class SourceRanksTests: XCTestCase {
    func testRanksAreTheSourcePriorityOrderAndWatchTest() {
        // Default priority: Apple Watch (tier 0), iPhone (tier 1), the rest (tier 2), then by name.
        // "Ann’s Apple<U+00A0>Watch" folds to "ann’s apple watch": tier 0. "Garmin" is a watch by
        // its records' device: tier 0 too, after "Ann…" by name. "ann’s iphone": tier 1. "Zed": 2.
        let watchName = "Ann’s Apple\u{00A0}Watch"
        let sources = ["Zed", "ann’s iphone", "Garmin", watchName]
        let ranks = SourceRanks(priority: SourcePriority(), watches: ["Garmin"])
        let expected = [watchName, "Garmin", "ann’s iphone", "Zed"]
        XCTAssertEqual(ranks.order(sources), expected)
        XCTAssertEqual(ranks.order(sources.reversed()), expected)  // from the cache: the same
        XCTAssertEqual(SourcePriority().order(sources, watches: ["Garmin"]), expected)
        XCTAssertTrue(ranks.isAppleWatch(watchName))
        XCTAssertTrue(ranks.isAppleWatch("Garmin"))
        XCTAssertFalse(ranks.isAppleWatch("ann’s iphone"))
        XCTAssertFalse(ranks.isAppleWatch("Zed"))
        // Asked in turns (the last answer is kept apart from the rest): each its own answer.
        XCTAssertEqual(
            ["Zed", watchName, watchName, "Zed", "Garmin", "Zed"].map(ranks.isAppleWatch), [false, true, true, false, true, false])
        // An explicit list: "Zed" first, then "iPhone"; the watches fall to the rest, by name.
        let custom = SourceRanks(priority: SourcePriority(["Zed", "iPhone"]), watches: ["Garmin"])
        XCTAssertEqual(custom.order(sources), ["Zed", "ann’s iphone", watchName, "Garmin"])
    }
}
