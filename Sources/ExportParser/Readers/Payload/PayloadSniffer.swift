/// Tells payload JSON from an HAE export by its first bytes, without parsing the file (an HAE
/// export can be hundreds of MB). Both may start `{"data"`: a payload body's `data` is an array
/// of days, an HAE export's an object of metrics and workouts. A bare payload's first key is one
/// of its own (`date`, `sleep`, …) or `metrics` holding an object (an HAE export's `metrics` is
/// an array).
enum PayloadSniffer {
    static let payloadKeys: Set<String> = ["date", "timezone", "device_sync_timestamp", "sleep", "running_mechanics"]

    static func isPayload(_ bytes: [UInt8]) -> Bool {
        var i = 0
        func skipSpace() { while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains(bytes[i]) { i += 1 } }
        skipSpace()
        // An array of bodies or of payloads: look at its first element.
        if i < bytes.count, bytes[i] == UInt8(ascii: "[") {
            i += 1
            skipSpace()
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return false }
        i += 1
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return false }
        i += 1
        let keyStart = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += 1 }
        guard i < bytes.count else { return false }
        let key = String(decoding: bytes[keyStart..<i], as: UTF8.self)
        if payloadKeys.contains(key) { return true }
        guard key == "data" || key == "metrics" else { return false }
        i += 1
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
        i += 1
        skipSpace()
        guard i < bytes.count else { return false }
        return bytes[i] == UInt8(ascii: key == "data" ? "[" : "{")
    }
}
