extension Duration {
    /// The duration in whole milliseconds, rounded to the nearest one (never negative).
    package var reportMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let millis = seconds * 1000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
        return max(0, millis)
    }

    /// Seconds with exactly three decimals and a `.` separator whatever the locale: `1.234`.
    package var reportSeconds: String { Self.formatSeconds(milliseconds: reportMilliseconds) }

    /// Formats whole milliseconds as seconds with three decimals: `1234` gives `1.234`.
    package static func formatSeconds(milliseconds: Int64) -> String {
        let value = max(0, milliseconds)
        let fraction = String(value % 1000)
        return "\(value / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// A short human form for consoles: `12 ms`, `1.234 s`, `2 m 03 s`.
    package var reportShortText: String {
        let millis = reportMilliseconds
        if millis < 1000 { return "\(millis) ms" }
        if millis < 60_000 { return "\(Self.formatSeconds(milliseconds: millis)) s" }
        let seconds = millis / 1000
        let rest = String(seconds % 60)
        return "\(seconds / 60) m " + (rest.count < 2 ? "0" : "") + rest + " s"
    }
}
