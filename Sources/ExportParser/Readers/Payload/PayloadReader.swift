import Foundation

/// Reads payload JSON back: what the app POSTs to `/sync/healthkit` and the backend keeps, and
/// what `convert` writes. Accepted: a folder of `DATE.json` files, a `payloads.json`, a file of
/// `{"data": [...]}` bodies (one JSON value, an array of them, or one per line), and a bare
/// payload object. Payloads are small (a few KB a day), so a file is parsed whole.
///
/// Fields are taken by their payload path (`OutputFields`); keys the table does not know are
/// counted, not guessed at. Every payload read is returned, several of one date included (the
/// app syncs a date several times): `LatestSyncs` chooses among them by `deviceSync`.
enum PayloadReader {
    struct Result {
        var days: [ComparableDay] = []
        /// Keys no output field has, with how often they were seen.
        var unknownKeys: [String: Int] = [:]
    }

    /// Whether `path` is payload JSON rather than an HAE export (both can start `{"data"`: a
    /// payload body's `data` is an array of days, an HAE file's an object of metrics).
    static func isPayloadInput(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        // A folder is payload JSON when its first .json file is (a folder of HAE files is not).
        if isDirectory.boolValue { return jsonFiles(in: path).first.map { isPayloadInput(path + "/" + $0) } ?? false }
        guard let handle = FileHandle(forReadingAtPath: path), let head = try? handle.read(upToCount: 65_536) else { return false }
        try? handle.close()
        return PayloadSniffer.isPayload([UInt8](head))
    }

    static func read(_ path: String) throws -> Result {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: path, message: "no such file or folder")
        }
        var result = Result()
        let files = isDirectory.boolValue ? jsonFiles(in: path).map { path + "/" + $0 } : [path]
        for file in files { try read(file: file, into: &result) }
        return result
    }

    /// The `.json` (and JSON Lines: `.jsonl`, `.ndjson`) files of a payloads folder, in name
    /// (date) order.
    static func jsonFiles(in dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { n in
            [".json", ".jsonl", ".ndjson"].contains { n.hasSuffix($0) }
        }.sorted()
    }

    private static func read(file: String, into result: inout Result) throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw InputError(file: file, message: "cannot be read") }
        var values: [Any] = []
        do {
            values = [try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])]
        } catch {
            // One body per line (JSON Lines); a line that does not parse is the file's error.
            let lines = data.split(separator: UInt8(ascii: "\n")).filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
            guard lines.count > 1 else { throw InputError(file: file, message: "not valid JSON: \(describe(error))") }
            for (i, line) in lines.enumerated() {
                do {
                    values.append(try JSONSerialization.jsonObject(with: Data(line)))
                } catch {
                    throw InputError(file: file, location: InputLocation(line: i + 1), message: "not valid JSON: \(describe(error))")
                }
            }
        }
        for (i, v) in values.enumerated() {
            try collect(v, at: values.count > 1 ? "line \(i + 1)" : "", file: file, into: &result)
        }
    }

    /// A payload, a body `{"data": [...]}`, or an array of either.
    private static func collect(_ value: Any, at path: String, file: String, into result: inout Result) throws {
        if let list = value as? [Any] {
            for (i, item) in list.enumerated() { try collect(item, at: path + "[\(i)]", file: file, into: &result) }
        } else if let object = value as? [String: Any], let data = object["data"] {
            guard let list = data as? [Any] else {
                throw InputError(
                    file: file, location: InputLocation(path: join(path, "data")), message: "\"data\" is not a list of payloads")
            }
            for (i, item) in list.enumerated() { try collect(item, at: join(path, "data") + "[\(i)]", file: file, into: &result) }
        } else if let object = value as? [String: Any] {
            result.days.append(try day(object, at: path, file: file, unknown: &result.unknownKeys))
        } else {
            throw InputError(file: file, location: InputLocation(path: path.isEmpty ? nil : path), message: "expected a payload object")
        }
    }

    private static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "." + b }

    private static let knownPaths = Set(OutputFields.all.compactMap(\.payloadPath))

    /// One payload object as a comparable day.
    static func day(_ object: [String: Any], at path: String, file: String, unknown: inout [String: Int]) throws -> ComparableDay {
        func fail(_ message: String, _ key: String? = nil) -> InputError {
            InputError(
                file: file, location: InputLocation(path: key.map { join(path, $0) } ?? (path.isEmpty ? nil : path)), message: message)
        }
        guard let date = object["date"] as? String, CivilDate.parseISODate(date) != nil else {
            throw fail("payload without a \"date\" in the form YYYY-MM-DD", "date")
        }
        var day = ComparableDay(date: date)
        for (key, value) in object {
            switch key {
            case "device_sync_timestamp":
                day.deviceSync = (value as? String).flatMap(ISOTimestamp.parse)
            case "timezone":
                day.timezone = value as? String
            case "date":
                continue
            case "metrics", "sleep", "running_mechanics":
                guard let members = value as? [String: Any] else {
                    if value is NSNull { continue }
                    throw fail("\"\(key)\" is not an object", key)
                }
                for (name, v) in members { try take(key + "." + name, v) }
            case "workouts":
                guard let list = value as? [Any] else { throw fail("\"workouts\" is not a list", key) }
                for (i, item) in list.enumerated() {
                    guard let w = item as? [String: Any], let workout = workout(w) else {
                        throw fail("workout without type, start, end and duration_seconds", "workouts[\(i)]")
                    }
                    day.workouts.append(workout)
                }
            default:
                unknown[key, default: 0] += 1
            }
        }
        return day

        func take(_ fieldPath: String, _ value: Any) throws {
            if let members = value as? [String: Any] {
                for (k, v) in members { try take(fieldPath + "." + k, v) }
                return
            }
            guard knownPaths.contains(fieldPath) else {
                unknown[fieldPath, default: 0] += 1
                return
            }
            if value is NSNull { return }
            if let n = number(value) {
                day.values[fieldPath] = .number(n)
            } else if let s = value as? String {
                day.values[fieldPath] = .text(s)
            } else {
                throw fail("\(fieldPath) is neither a number nor a text", fieldPath)
            }
        }
    }

    /// A JSON number (never a Bool, which Foundation also bridges to NSNumber).
    static func number(_ value: Any) -> Double? {
        guard let n = value as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
        let d = n.doubleValue
        return d.isFinite ? d : nil
    }

    static func workout(_ w: [String: Any]) -> ComparableWorkout? {
        guard let type = w["type"] as? String, let start = w["start"] as? String, let end = w["end"] as? String,
            let startTime = ISOTimestamp.parse(start), let duration = w["duration_seconds"].flatMap(number)
        else { return nil }
        var out = ComparableWorkout(type: type, start: start, end: end, startSeconds: startTime.seconds, durationSeconds: duration)
        out.energyKcal = w["energy_kcal"].flatMap(number)
        out.averageHeartRate = w["avg_heart_rate"].flatMap(number)
        out.maximumHeartRate = w["max_heart_rate"].flatMap(number)
        out.distanceMetres = w["distance_m"].flatMap(number)
        out.source = w["source"] as? String
        return out
    }

    private static func describe(_ error: Error) -> String {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
        return text
    }
}

/// ISO 8601 as the payload writes it: `2024-03-02T07:00:00+11:00` (or `Z`).
enum ISOTimestamp {
    static func parse(_ s: String) -> Timestamp? {
        guard s.count >= 20 else { return nil }
        var t = Array(s.utf8)
        guard t.count > 10, t[10] == UInt8(ascii: "T") else { return nil }
        t[10] = UInt8(ascii: " ")
        // `…:SS+11:00` → `…:SS +1100`, the layout the timestamp parser reads from inputs.
        var out = Array(t[0..<19])
        let rest = Array(t[19...])
        if rest == [UInt8(ascii: "Z")] {
            out += Array(" +0000".utf8)
        } else if rest.count == 6, rest[3] == UInt8(ascii: ":") {
            out += [UInt8(ascii: " ")] + rest[0..<3] + rest[4..<6]
        } else {
            return nil
        }
        return TimestampParser.parse(out)
    }
}
