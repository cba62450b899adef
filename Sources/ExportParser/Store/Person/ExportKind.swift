/// One kind of a person's data in a `gdpr-export`: the file stem (`samples` gives
/// `samples.jsonl` and `samples.csv`), what it holds in plain words for README.txt, its columns,
/// and the rest of its query. The SELECT list is made from the columns, so a column's name, its
/// meaning and its value cannot drift apart.
struct ExportKind {
    let name: String
    let about: String
    let columns: [ExportColumn]
    /// `FROM … WHERE … ORDER BY …`, with the person bound as `?1`. Every kind is ordered, so
    /// two exports of the same store are the same bytes.
    let from: String

    var sql: String {
        "SELECT " + columns.flatMap(\.expressions).joined(separator: ", ") + " " + from
    }

    var jsonLinesName: String { name + ".jsonl" }
    var csvName: String { name + ".csv" }
}

/// One column of an export file: its name in the CSV header and as the JSON key, its meaning
/// (README.txt) and the SQL expression(s) that give its value.
struct ExportColumn {
    enum Form {
        /// The expression's value as SQLite types it: a number, text or null.
        case value
        /// Text that is JSON (an object or array): embedded as JSON in the JSON Lines file, the
        /// text itself in the CSV cell.
        case json
        /// Two expressions, epoch seconds and the recorded UTC offset in seconds, written as
        /// ISO 8601 text with that offset (`2024-03-05T07:58:11+01:00`). Formatted here rather
        /// than by SQLite's `strftime`, which costs more than the rest of a sample row.
        case instant

        /// Whether the value is JSON text (embedded as JSON in the JSON Lines file).
        var isJSON: Bool {
            switch self {
            case .json: true
            case .value, .instant: false
            }
        }
    }

    let name: String
    let meaning: String
    let form: Form
    let expressions: [String]

    static func value(_ name: String, _ expression: String, _ meaning: String) -> ExportColumn {
        ExportColumn(name: name, meaning: meaning, form: .value, expressions: [expression])
    }

    static func json(_ name: String, _ expression: String, _ meaning: String) -> ExportColumn {
        ExportColumn(name: name, meaning: meaning, form: .json, expressions: [expression])
    }

    static func instant(_ name: String, epoch: String, offset: String, _ meaning: String) -> ExportColumn {
        ExportColumn(name: name, meaning: meaning, form: .instant, expressions: [epoch, offset])
    }

    /// A row's number in this export, the id `expression` gives in `space` (`ExportIDFunction`):
    /// its own (`source_id`, `workout_id`, …) or the one it points to.
    static func id(_ name: String, _ space: ExportIDFunction.Space, _ expression: String, _ meaning: String) -> ExportColumn {
        value(name, ExportIDFunction.sql(space, expression), meaning)
    }

    /// A row's own number, said as every kind says it: "The workout's number in this export (1, 2, …)."
    static func number(_ name: String, _ space: ExportIDFunction.Space, _ expression: String, of noun: String) -> ExportColumn {
        id(name, space, expression, "The \(noun)'s number in this export (1, 2, …).")
    }

    /// The import a row came from, as imports.csv numbers it.
    static func importID(_ expression: String, _ meaning: String) -> ExportColumn {
        id("import_id", .imports, expression, meaning)
    }
}
