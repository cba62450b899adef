/// The `device` text of a record or workout without its per-record memory address:
/// `<<HKDevice: 0x282a45810>, name:Apple Watch, …>` → `<<HKDevice>, name:Apple Watch, …>`. The
/// address differs on every record (and in every synced copy) and means nothing; other text is
/// kept as written. (The export reader does the same on bytes, on its hot path.)
enum DeviceText {
    static func withoutAddress(_ raw: String) -> String {
        let (head, rest) = withoutAddressParts(raw)
        return head.isEmpty ? raw : head + rest
    }

    /// `withoutAddress` as the text before the address and the rest after it (the first empty
    /// when there is no address), so that a hash can take the text without a new String
    /// (`WorkoutIdentity.syncCopyKey`).
    static func withoutAddressParts(_ raw: String) -> (head: String, rest: Substring) {
        let u = raw.utf8
        guard u.starts(with: "<<HKDevice: 0x".utf8), let close = u.firstIndex(of: UInt8(ascii: ">")) else { return ("", raw[...]) }
        return ("<<HKDevice", raw[close...])
    }
}
