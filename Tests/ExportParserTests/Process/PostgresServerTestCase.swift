import XCTest

/// A test class that needs a real PostgreSQL server (`PostgresTestServer`): one is started before
/// the class's first test and stopped after its last, so each class has a server of its own.
class PostgresServerTestCase: XCTestCase {
    nonisolated(unsafe) static var server: PostgresTestServer?

    override func setUpWithError() throws {
        try super.setUpWithError()
        if Self.server == nil { Self.server = try PostgresTestServer() }
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    var server: PostgresTestServer { Self.server! }
}
