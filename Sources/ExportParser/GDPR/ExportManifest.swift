import Foundation

/// One file of an export as manifest.json lists it.
struct ExportedFile: Sendable, Equatable {
    let name: String
    /// Data rows (a CSV's header not counted); nil for README.txt.
    let rows: Int?
    let bytes: UInt64
    /// Lowercase hex sha256 of the file's bytes.
    let sha256: String
}

/// manifest.json: who, when, which versions, and every other file with its rows, size and sha256.
enum ExportManifest {
    static let name = "manifest.json"

    static func text(person: String, createdAt: Date, schemaVersion: Int, files: [ExportedFile]) -> String {
        var out = "{\n"
        out += "  \"person\": \(JSONText.quote(person)),\n"
        out += "  \"created_at\": \(JSONText.quote(HealthStore.isoUTC(createdAt))),\n"
        out += "  \"tool\": \"health-import\",\n"
        out += "  \"tool_version\": \(JSONText.quote(ExportParserVersion.current)),\n"
        out += "  \"store_schema_version\": \(schemaVersion),\n"
        out += "  \"comparison_results\": \"none: the store holds no comparison results\",\n"
        out += "  \"files\": [\n"
        out += files.map { f in
            "    {\"name\": \(JSONText.quote(f.name)), \"rows\": \(f.rows.map(String.init) ?? "null"), \"bytes\": \(f.bytes), \"sha256\": \"\(f.sha256)\"}"
        }.joined(separator: ",\n")
        out += "\n  ]\n}\n"
        return out
    }
}
