/// README.txt of a `gdpr-export`: what each file and each column means, in plain words, and
/// the units, made from the kinds themselves so it always matches the files beside it.
enum ExportReadme {
    static let name = "README.txt"

    static func text(kinds: [ExportKind]) -> String {
        var out = """
            Your health data, exported by health-import
            ===========================================

            These files hold everything a health-import store held about one person when they were
            made: every imported file, every record with its metadata, workouts, correlations,
            Apple's activity summaries, characteristics, other items the inputs held, and the daily
            values. manifest.json names the person, says when the export was made, with which
            health-import version and store schema version, and lists every file with its number of
            rows, its size in bytes and its sha256 checksum (check one with: sha256sum FILE).

            Each kind of data is in two files with the same rows in the same order:
              NAME.jsonl  JSON Lines: one JSON object a line, UTF-8.
              NAME.csv    CSV (RFC 4180): a header line, then one row a line, UTF-8, CRLF line ends.
            A value that is missing is null in the JSON Lines file and an empty cell in the CSV (an
            empty text is "" in both). Columns described as "JSON" hold a JSON object or array:
            embedded as such in the JSON Lines file, as its text in the CSV cell. A text that
            starts with =, +, -, @, a tab or a carriage return (a source may name itself
            =HYPERLINK(...)) has a ' put before it in the CSV, so that a spreadsheet shows it
            instead of running it as a formula; the JSON Lines file has it as it is. Numbers, and
            a sign followed only by digits, ':' and '.' (a UTC offset such as +11:00), are
            written as they are.

            Times are ISO 8601 with the UTC offset the device recorded (2024-03-05T07:58:11+01:00)
            unless a column says UTC; dates are YYYY-MM-DD. Numbers are as stored, at full
            precision, in the unit the row or the column names. Every "..._id" numbers the rows
            of its kind within this export (1, 2, ..., in the order they were stored), not the
            store's own numbers, which count other people's rows too; files point to each other
            with them (samples.csv import_id is an import_id of imports.csv).

            Comparison results: the store holds none (health-import compare writes its reports to
            files of their own), so there is no file for them here.


            """
        for kind in kinds {
            out += "\(kind.jsonLinesName), \(kind.csvName)\n"
            out += wrap(kind.about, indent: "  ") + "\n"
            out += "  Columns:\n"
            for column in kind.columns {
                out += wrap(column.name + ": " + column.meaning, indent: "    ", hanging: "      ") + "\n"
            }
            out += "\n"
        }
        out += "manifest.json\n  The person, when the export was made (UTC), the tool and store schema versions, and every file's\n"
        out += "  name, rows (null for this README), bytes and sha256.\n"
        return out
    }

    /// `text` in lines of at most 100 characters, the first indented by `indent`, the rest by `hanging`.
    static func wrap(_ text: String, indent: String, hanging: String? = nil) -> String {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            let blank = line == indent || line == (hanging ?? indent)
            if !blank, line.count + 1 + word.count > 100 {
                lines.append(line)
                line = hanging ?? indent
            }
            line += (line == indent || line == (hanging ?? indent) ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
