import XCTest

@testable import ExportParser

/// Unreadable files: every one throws an InputError naming the file, the byte offset and,
/// where there is one, the JSON path.
final class HAEReaderErrorTests: XCTestCase {
    private func inputError(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> InputError? {
        let sink = CollectingSink(details: false)
        do {
            _ = try HAEReader(path: HAEFixtures.path(name)).read(into: sink)
            XCTFail("\(name) read without error", file: file, line: line)
            return nil
        } catch let e as InputError {
            return e
        } catch {
            XCTFail("\(name): unexpected \(error)", file: file, line: line)
            return nil
        }
    }

    func testBrokenJSONReportsOffsetAndPath() throws {
        let path = HAEFixtures.path("broken-trailing-comma.json")
        let e = try XCTUnwrap(inputError("broken-trailing-comma.json"))
        // `"qty": 5,}`: yajl stops at the `}` where a key must follow the comma
        let brace = try XCTUnwrap(HAEFixtures.offset(of: ",}", in: path)) + 1
        XCTAssertEqual(e.location?.byteOffset, brace + 1)  // bytes consumed, including the bad `}`
        XCTAssertEqual(e.location?.path, "data.metrics[0].data[0].qty")
        XCTAssertTrue(e.message.contains("invalid object key"), e.message)
        XCTAssertTrue(e.description.hasPrefix(path), e.description)
    }

    func testTruncatedFile() throws {
        let path = HAEFixtures.path("truncated.json")
        let e = try XCTUnwrap(inputError("truncated.json"))
        XCTAssertTrue(e.message.contains("premature EOF"), e.message)
        XCTAssertTrue(e.message.contains("truncated"), e.message)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertEqual(e.location?.byteOffset, Int64(size))
        XCTAssertEqual(e.location?.path, "data.metrics[0].data[1].date")
    }

    func testEmptyAndWhitespaceFiles() throws {
        XCTAssertTrue(try XCTUnwrap(inputError("empty.json")).message.contains("empty file"))
        XCTAssertTrue(try XCTUnwrap(inputError("whitespace-only.json")).message.contains("empty file"))
    }

    func testTopLevelScalarIsNotHAE() throws {
        let e = try XCTUnwrap(inputError("top-level-number.json"))
        XCTAssertTrue(e.message.contains("not a Health Auto Export document"), e.message)
    }

    func testMissingFile() {
        XCTAssertThrowsError(try HAEReader(path: "/nonexistent/hae.json").read(into: CollectingSink(details: false))) { error in
            XCTAssertEqual((error as? InputError)?.message, "no such file")
        }
    }
}
