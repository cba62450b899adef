import Foundation

/// One date to push: the exact bytes of its request body and their sha256, which the store
/// records so that a rerun can tell an unchanged day from a changed one.
struct PushDay: Sendable {
    let date: String
    let body: Data
    let sha256: String
    /// The day's `device_sync_timestamp` when the export moment falls on it (`PartialDate`): a
    /// partial day, left out unless `--include-partial`; nil for a whole day.
    let partialMoment: String?

    /// `payload` is the day's payload JSON as `payloads/DATE.json` holds it.
    init(date: String, payload: String, body kind: PushBody) {
        self.date = date
        let object = (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any]
        let sync = object?["device_sync_timestamp"] as? String
        partialMoment = sync.flatMap { PartialDate.isPartial(date: date, deviceSyncTimestamp: $0) ? $0 : nil }
        var text = payload
        while text.last?.isNewline == true { text.removeLast() }
        // One day a request, as the app sends it (docs/push.md, "The request").
        body = Data((kind == .wrapped ? "{\"data\": [" + text + "]}" : text).utf8)
        sha256 = FileDigest.hex(SHA256.hash(data: body))
    }
}

/// Where the days come from: the payloads `convert` stored (`day_payloads`), or a folder of
/// `YYYY-MM-DD.json` files.
enum PushDays {
    static func fromStore(
        _ store: HealthStore, path: String, person: String, from: String?, to: String?,
        body: PushBody
    ) throws -> [PushDay] {
        let rows = try store.payloads(person: person, from: nil, to: nil)
        guard !rows.isEmpty else {
            throw InputError(
                file: path,
                message:
                    "the store holds no payloads for the person \"\(person)\": convert stores them (from schema version 3 on; run convert again), or give --payloads DIR"
            )
        }
        return rows.filter { inWindow($0.date, from, to) }.map { PushDay(date: $0.date, payload: $0.json, body: body) }
    }

    /// Every `YYYY-MM-DD.json` of `dir` in date order, each checked to be a JSON object whose
    /// `date` is its file's name (a stray or half-edited file is refused, not sent).
    static func fromFolder(_ dir: String, from: String?, to: String?, body: PushBody) throws -> [PushDay] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir)
        } catch {
            throw InputError(file: dir, message: "cannot list the payloads folder (convert writes one under out/payloads)")
        }
        let dated = names.filter { $0.hasSuffix(".json") && CivilDate.parseISODate(String($0.dropLast(5))) != nil }.sorted()
        guard !dated.isEmpty else { throw InputError(file: dir, message: "holds no YYYY-MM-DD.json payload files") }
        var days: [PushDay] = []
        for name in dated {
            let date = String(name.dropLast(5))
            guard inWindow(date, from, to) else { continue }
            let file = dir + "/" + name
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw InputError(file: file, message: "cannot be read as UTF-8 text")
            }
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            guard let object else { throw InputError(file: file, message: "is not a JSON object: not a payload") }
            guard object["date"] as? String == date else {
                throw InputError(file: file, message: "its \"date\" is not \(date), the date its name gives")
            }
            days.append(PushDay(date: date, payload: text, body: body))
        }
        return days
    }

    private static func inWindow(_ date: String, _ from: String?, _ to: String?) -> Bool {
        (from.map { date >= $0 } ?? true) && (to.map { date <= $0 } ?? true)
    }
}
