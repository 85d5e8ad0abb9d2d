/// Scenario durations as the previous release read them, as its example drivers did.
@available(*, deprecated, message: "use Duration(scenarioText:)")
public enum DurationParser {
    /// The duration `text` writes, such as `"250ms"` or `"1h30m"`; what is wrong with it otherwise.
    public static func parse(_ text: String) throws -> Duration { try Duration(scenarioText: text) }
}
