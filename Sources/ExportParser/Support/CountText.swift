/// Counts as the summaries print them, for every command's summary lines and messages.
public enum CountText {
    /// `2,340,833`.
    public static func count(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0, i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    /// `1 day`, `2 days`, `2,340,833 records`: the count and the noun in its number.
    public static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        count(n) + " " + (n == 1 ? noun : plural ?? noun + "s")
    }
}
