import Foundation

/// A payload's `timezone` as a zone: an IANA name (`Europe/Berlin`), `Z`/`UTC`/`GMT`, or a fixed
/// offset `±HH:MM` / `±HHMM` of at most 14 hours (the widest any place has). The one reading
/// of that text for `receive`'s date check (`PlausibleDates`) and `compare --monitor`'s today
/// (`MonitorEnd`).
enum PayloadTimeZone {
    static func zone(_ text: String) -> TimeZone? {
        if text == "Z" || text == "UTC" || text == "GMT" { return TimeZone(secondsFromGMT: 0) }
        let u = Array(text.utf8)
        if u.count == 6 || u.count == 5, u[0] == UInt8(ascii: "+") || u[0] == UInt8(ascii: "-") {
            let digits = u.count == 6 && u[3] == UInt8(ascii: ":") ? [u[1], u[2], u[4], u[5]] : Array(u[1...])
            guard digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let h = Int(digits[0] - 0x30) * 10 + Int(digits[1] - 0x30)
            let m = Int(digits[2] - 0x30) * 10 + Int(digits[3] - 0x30)
            guard h <= 14, m < 60 else { return nil }
            return TimeZone(secondsFromGMT: (u[0] == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60))
        }
        return TimeZone(identifier: text)
    }
}
