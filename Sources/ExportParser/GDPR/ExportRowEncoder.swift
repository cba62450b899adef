/// The two forms of every kind: one JSON object a line, and RFC 4180 CSV with a header.
enum ExportFormat: CaseIterable {
    case jsonLines
    case csv
}

/// Turns a kind's rows (`ExportKindRows`, the store's) into JSON Lines or CSV bytes, straight
/// from the store's cell buffers. Both forms write a value the same way (numbers as the same text; null as `null` or
/// an empty cell), so the two files of a kind hold the same rows.
struct ExportRowEncoder {
    /// A column's form without its payload, so that a row's loop copies no references.
    private enum CellForm {
        case value, json, instant
    }

    private struct Cell {
        let form: CellForm
        let index: Int32
        /// Where `{"name":` (first column) or `,"name":` sits in `jsonKeys`.
        let keyStart: Int
        let keyCount: Int
    }

    let format: ExportFormat
    private let cells: [Cell]
    private let jsonKeys: [UInt8]
    private let csvHeader: [UInt8]

    init(kind: ExportKind, format: ExportFormat) {
        self.format = format
        var cells: [Cell] = []
        var keys: [UInt8] = []
        var index: Int32 = 0
        for (i, column) in kind.columns.enumerated() {
            let key = Array(((i == 0 ? "{" : ",") + JSONText.quote(column.name) + ":").utf8)
            let form: CellForm
            switch column.form {
            case .value: form = .value
            case .json: form = .json
            case .instant: form = .instant
            }
            cells.append(Cell(form: form, index: index, keyStart: keys.count, keyCount: key.count))
            keys += key
            index += Int32(column.expressions.count)
        }
        self.cells = cells
        jsonKeys = keys
        let header = ExportBytes(capacity: 1024)
        for (i, column) in kind.columns.enumerated() {
            if i > 0 { header.append(0x2C) }
            header.appendCSVField(column.name)
        }
        header.append([0x0D, 0x0A])
        csvHeader = header.array
    }

    /// What comes before the first row: the CSV header line; nothing for JSON Lines.
    func header(into out: ExportBytes) {
        if format == .csv { out.append(csvHeader) }
    }

    /// The row `stmt` is on, with its line end.
    func row<Rows: ExportKindRows>(_ stmt: Rows, into out: ExportBytes) {
        switch format {
        case .jsonLines:
            for cell in cells {
                out.append(jsonKeys[cell.keyStart..<cell.keyStart + cell.keyCount])
                jsonValue(stmt, cell, into: out)
            }
            out.append(0x7D)
            out.append(0x0A)
        case .csv:
            for (i, cell) in cells.enumerated() {
                if i > 0 { out.append(0x2C) }
                csvValue(stmt, cell, into: out)
            }
            out.append(0x0D)
            out.append(0x0A)
        }
    }

    @inline(__always) private func jsonValue<Rows: ExportKindRows>(_ stmt: Rows, _ cell: Cell, into out: ExportBytes) {
        let i = cell.index
        let type = stmt.type(i)
        if type == .null {
            out.append(Self.null)
            return
        }
        switch cell.form {
        case .instant:
            Self.instant(stmt, i, into: out, quoted: true)
        case .json:
            let (p, n) = stmt.textBytes(i)
            out.append(p, n)
        case .value:
            switch type {
            case .integer: out.appendInt(stmt.int(i))
            case .real: if !out.appendDouble(stmt.real(i)) { out.append(Self.null) }
            default:
                let (p, n) = stmt.textBytes(i)
                out.appendJSONString(p, n)
            }
        }
    }

    @inline(__always) private func csvValue<Rows: ExportKindRows>(_ stmt: Rows, _ cell: Cell, into out: ExportBytes) {
        let i = cell.index
        let type = stmt.type(i)
        if type == .null { return }
        switch cell.form {
        case .instant:
            Self.instant(stmt, i, into: out, quoted: false)
        case .json:
            let (p, n) = stmt.textBytes(i)
            out.appendCSVField(p, n)
        case .value:
            switch type {
            case .integer: out.appendInt(stmt.int(i))
            case .real: _ = out.appendDouble(stmt.real(i))
            default:
                let (p, n) = stmt.textBytes(i)
                out.appendCSVField(p, n)
            }
        }
    }

    private static let null: StaticString = "null"

    /// Epoch seconds at `i` and the UTC offset at `i + 1` as ISO 8601 text (`ISOInstant`).
    @inline(__always) private static func instant<Rows: ExportKindRows>(_ stmt: Rows, _ i: Int32, into out: ExportBytes, quoted: Bool) {
        let t = Timestamp(seconds: stmt.int(i), offset: Int32(truncatingIfNeeded: stmt.int(i + 1)))
        if quoted { out.append(0x22) }
        out.appendInstant(t)
        if quoted { out.append(0x22) }
    }
}
