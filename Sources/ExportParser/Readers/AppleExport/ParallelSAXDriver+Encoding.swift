import Foundation

/// The parallel read's test of the document's encoding (its chunks' parsers see no declaration).
extension ParallelSAXDriver {
    /// Whether the document is UTF-8: its XML declaration names no encoding, or UTF-8.
    static func declaresUTF8(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(512)
        guard head.starts(with: Array("<?xml".utf8)), let end = head.firstIndex(of: UInt8(ascii: ">")) else { return true }
        let declaration = String(decoding: head[..<end], as: UTF8.self).lowercased()
        guard let at = declaration.range(of: "encoding") else { return true }
        let rest = declaration[at.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
        return rest.hasPrefix("utf-8") || rest.hasPrefix("utf8")
    }
}
