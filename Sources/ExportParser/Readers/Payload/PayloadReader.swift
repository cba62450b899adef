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
        /// Values left out because no real day can hold them (a negative count or duration), one
        /// sentence each naming the date and the field, never the value.
        var leftOut: [String] = []
        /// The `timezone` each date's payload states (the last read of a date), for the dates
        /// `receive` finds plausible (`PlausibleDates`).
        var zones: [String: String] = [:]
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
        try read(data: data, file: file, into: &result)
    }

    /// One file's (or one received body's) bytes; `file` names it in messages.
    static func read(data: Data, file: String, into result: inout Result) throws {
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
            result.days.append(try day(object, at: path, file: file, into: &result))
        } else {
            throw InputError(file: file, location: InputLocation(path: path.isEmpty ? nil : path), message: "expected a payload object")
        }
    }

    private static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "." + b }

    private static let knownPaths = Set(OutputFields.all.compactMap(\.payloadPath))

    /// The payload fields that hold text (dates, zones, in-bed times); every other one is a number.
    static let textPaths = Set(OutputFields.all.filter { $0.kind.isText }.compactMap(\.payloadPath))

    /// The number fields no real day can hold below zero: a metric's whose samples cannot be
    /// negative (its plausible range, docs/catalog.md), sleep hours and counts.
    static let nonNegativePaths: Set<String> = {
        var paths = Set(
            Catalog.metrics.filter { $0.plausible.lowerBound >= 0 }.flatMap { OutputFields.fields(of: $0) }.compactMap(\.payloadPath))
        for f in OutputFields.all where [.sleepDuration, .count, .workoutsCount].contains(f.kind) {
            if let p = f.payloadPath { paths.insert(p) }
        }
        return paths
    }()

    /// One payload object as a comparable day; unknown keys and values left out go to `result`.
    static func day(_ object: [String: Any], at path: String, file: String, into result: inout Result) throws -> ComparableDay {
        func fail(_ message: String, _ key: String? = nil) -> InputError {
            InputError(
                file: file, location: InputLocation(path: key.map { join(path, $0) } ?? (path.isEmpty ? nil : path)), message: message)
        }
        guard let date = object["date"] as? String, CivilDate.parseISODate(date) != nil else {
            if object["date"] is String { throw fail("the payload's \"date\" is no real date in the form YYYY-MM-DD", "date") }
            throw fail("payload without a \"date\" in the form YYYY-MM-DD", "date")
        }
        var day = ComparableDay(date: date)
        if let zone = object["timezone"] as? String { result.zones[date] = zone }
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
                result.unknownKeys[key, default: 0] += 1
            }
        }
        return day

        func take(_ fieldPath: String, _ value: Any) throws {
            if let members = value as? [String: Any] {
                for (k, v) in members { try take(fieldPath + "." + k, v) }
                return
            }
            guard knownPaths.contains(fieldPath) else {
                result.unknownKeys[fieldPath, default: 0] += 1
                return
            }
            if value is NSNull { return }
            if let n = number(value) {
                // A negative count, sum or duration is no real day's: left out, and said so
                // (docs/receive.md, "What a body must be"), as the HAE and export readers skip
                // an implausible sample.
                if n < 0, nonNegativePaths.contains(fieldPath) {
                    result.leftOut.append("\(date): \(fieldPath) is negative; left out")
                    return
                }
                day.values[fieldPath] = .number(n)
            } else if value is String, !textPaths.contains(fieldPath) {
                throw fail("\(fieldPath) is a text where the payload has a number", fieldPath)
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
