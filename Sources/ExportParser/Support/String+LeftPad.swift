extension String {
    /// Right-aligned in `n` characters (the summaries' and compare's count columns).
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
