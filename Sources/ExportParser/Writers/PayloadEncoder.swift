/// A finished day as the body of `POST /sync/healthkit` (docs/payload.md), written from
/// `OutputFields.all`: keys in the documented order, fields with no value left out, `sleep` and
/// `running_mechanics` only when there is something to say, `metrics` and `workouts` always
/// present.
package enum PayloadEncoder {
    /// Decimals for workout figures (seconds, kcal, bpm, metres are whole on the wire).
    static let workoutDecimals = 0

    /// The top-level keys in payload.md's order (the field table is in CSV order, where running
    /// mechanics sit among the metrics), and whether each is written when it has no members.
    static let layout: [(key: String, keepEmpty: Bool)] = [
        ("date", true), ("timezone", true), ("device_sync_timestamp", true), ("metrics", true),
        ("sleep", false), ("workouts", true), ("running_mechanics", false),
    ]

    /// A key of the payload: one field, or an object of further keys (in table order).
    indirect enum Node: Sendable {
        case field(OutputField)
        case object([Member], keepEmpty: Bool)
    }

    struct Member: Sendable {
        let key: String
        let node: Node
        /// `"key": ` as `write` puts it before the value, made once (the keys are the table's).
        let quotedKey: [UInt8]

        init(key: String, node: Node) {
            self.key = key
            self.node = node
            let out = ExportBytes(capacity: key.utf8.count + 8)
            out.appendJSONString(key)
            out.append(": ")
            quotedKey = out.array
        }
    }

    /// The payload's shape, built once from the table's payload paths.
    static let tree: [Member] = {
        let rows = OutputFields.all.compactMap { f in f.payloadPath.map { (path: $0.split(separator: ".").map(String.init), field: f) } }
        for r in rows where !layout.contains(where: { $0.key == r.path[0] }) {
            preconditionFailure("payload path \(r.field.name) is outside the payload's layout")
        }
        return layout.map { key, keepEmpty in
            let mine = rows.filter { $0.path[0] == key }.map { (path: Array($0.path.dropFirst()), field: $0.field) }
            precondition(!mine.isEmpty, "no output field for the payload's \(key)")
            return Member(key: key, node: node(mine, keepEmpty: keepEmpty))
        }
    }()

    /// One field when its path ends here, else an object of its members, each key at the place
    /// of its first field.
    private static func node(_ rows: [(path: [String], field: OutputField)], keepEmpty: Bool) -> Node {
        if rows.count == 1, rows[0].path.isEmpty { return .field(rows[0].field) }
        var keys: [String] = []
        var byKey: [String: [(path: [String], field: OutputField)]] = [:]
        for r in rows {
            guard let key = r.path.first else { preconditionFailure("payload path \(r.field.name) is both a value and an object") }
            if byKey[key] == nil { keys.append(key) }
            byKey[key, default: []].append((Array(r.path.dropFirst()), r.field))
        }
        return .object(keys.map { Member(key: $0, node: node(byKey[$0]!, keepEmpty: false)) }, keepEmpty: keepEmpty)
    }

    package static func payload(_ day: FinishedDay) -> JSONValue {
        .object(members(tree, day))
    }

    /// The text of `payload(day).bytes()` (two spaces an indent), written straight into `out`
    /// without building the `JSONValue` tree first: `convert` renders every date's payload after
    /// the reading, on the critical path, and the tree (an array of members an object, a string
    /// a number) was about half of a date's rendering (docs/hae.md, "Rendering"). The same
    /// members in the same order; an object that `payload` leaves out (no member and not
    /// `keepEmpty`) is written and then cut off again. `PayloadWriterTests` holds the two
    /// renderings equal on every profile's days.
    static func write(_ day: FinishedDay, into out: ExportBytes) {
        _ = writeObject(tree, day, into: out, level: 0, keepEmpty: true)
    }

    /// `{…}` of the members of `list` that have a value, at nesting `level`; false, having
    /// written nothing, when none has and the object is not `keepEmpty`.
    private static func writeObject(_ list: [Member], _ day: FinishedDay, into out: ExportBytes, level: Int, keepEmpty: Bool) -> Bool {
        let start = out.count
        out.append(0x7B)
        var written = 0
        for m in list {
            let mark = out.count
            if written > 0 { out.append(0x2C) }
            newline(out, level + 1)
            out.append(m.quotedKey)
            if write(m.node, day, into: out, level: level + 1) {
                written += 1
            } else {
                out.truncate(to: mark)
            }
        }
        guard written > 0 else {
            out.truncate(to: start)
            if keepEmpty { out.append("{}") }
            return keepEmpty
        }
        newline(out, level)
        out.append(0x7D)
        return true
    }

    /// One node's value; false, having written nothing, when it has none.
    private static func write(_ node: Node, _ day: FinishedDay, into out: ExportBytes, level: Int) -> Bool {
        switch node {
        case .field(let f):
            guard let value = f.read(day) else { return false }
            switch value {
            case .number(let n): out.appendRounded(n, decimals: f.numberDecimals)
            case .text(let t): out.appendJSONString(t)
            case .workouts(let list):
                guard !list.isEmpty else {
                    out.append("[]")
                    return true
                }
                out.append(0x5B)
                for (i, w) in list.enumerated() {
                    if i > 0 { out.append(0x2C) }
                    newline(out, level + 1)
                    workout(w).write(into: out, indent: 2, level: level + 1)
                }
                newline(out, level)
                out.append(0x5D)
            }
            return true
        case .object(let list, let keepEmpty):
            return writeObject(list, day, into: out, level: level, keepEmpty: keepEmpty)
        }
    }

    /// A line break and `level` indents of two spaces, as `JSONValue` writes them.
    @inline(__always) private static func newline(_ out: ExportBytes, _ level: Int) {
        out.append(0x0A)
        for _ in 0..<(2 * level) { out.append(0x20) }
    }

    private static func members(_ list: [Member], _ day: FinishedDay) -> [(String, JSONValue)] {
        list.compactMap { m in json(m.node, day).map { (m.key, $0) } }
    }

    private static func json(_ node: Node, _ day: FinishedDay) -> JSONValue? {
        switch node {
        case .field(let f):
            return f.read(day).map { json($0, of: f) }
        case .object(let list, let keepEmpty):
            let m = members(list, day)
            return m.isEmpty && !keepEmpty ? nil : .object(m)
        }
    }

    /// A field's value as the payload writes it (rounded for the wire; `explain` prints it too).
    static func json(_ value: OutputField.Value, of f: OutputField) -> JSONValue {
        switch value {
        case .number(let n): return .number(n, decimals: f.numberDecimals)
        case .text(let t): return .string(t)
        case .workouts(let list): return .array(list.map(workout))
        }
    }

    static func workout(_ w: WorkoutSummary) -> JSONValue {
        func num(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: workoutDecimals) } ?? .null }
        return .object([
            ("type", .string(w.type)),
            ("start", .string(w.start)),
            ("end", .string(w.end)),
            ("duration_seconds", .number(w.durationSeconds, decimals: workoutDecimals)),
            ("energy_kcal", num(w.energyKcal)),
            ("avg_heart_rate", num(w.averageHeartRate)),
            ("max_heart_rate", num(w.maximumHeartRate)),
            ("distance_m", num(w.distanceMetres)),
            ("source", .string(w.source)),
        ])
    }
}
