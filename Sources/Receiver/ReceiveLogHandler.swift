import Foundation
import Logging

/// `receive`'s swift-log handler: one line an event on standard error, in the form its request
/// lines have always had (`TIME person=ann POST /hae 200 bytes=812 ms=3`): the time, the
/// `person` entry, the message, then the other entries by name; a level other than info comes
/// first. What it prints is only what the server logs, which is never a key, a header value or
/// anything of a body (`ReceiveLog`).
struct ReceiveLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        FileHandle.standardError.write(Data((Self.line(event, base: metadata) + "\n").utf8))
    }

    static func line(_ event: LogEvent, base: Logger.Metadata, at time: Date = Date()) -> String {
        let entries = base.merging(event.metadata ?? [:]) { _, new in new }
        var parts = [ISO8601DateFormatter().string(from: time)]
        if event.level != .info { parts.append(event.level.rawValue) }
        if let person = entries["person"] { parts.append("person=\(person)") }
        parts.append(event.message.description)
        for key in entries.keys.sorted() where key != "person" { parts.append("\(key)=\(entries[key]!)") }
        return parts.joined(separator: " ")
    }
}
