import Foundation

/// What a `gdpr-export` wrote.
public struct GDPRExportOutcome: Sendable {
    public let path: String
    public let person: String
    /// Rows of the person exported (each once, though each is in two files).
    public let rows: Int
    public let seconds: Double
    let files: [ExportedFile]

    public var bytes: UInt64 { files.reduce(0) { $0 + $1.bytes } }

    public func summaryLines() -> [String] {
        let rate = seconds > 0 ? Int(Double(rows) / seconds) : rows
        return [
            "Exported \(CountText.count(rows)) rows of \(person) in \(files.count + 1) files (\(String(format: "%.1f", Double(bytes) / 1_000_000)) MB) to \(path)",
            String(format: "%.1f s, ", seconds) + CountText.count(rate) + " rows/s",
        ]
    }
}
