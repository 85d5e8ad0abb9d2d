/// The outcome of one step (or of the final `expect` block).
public struct StepResult: Sendable, Codable {
    /// 1-based position; the final `expect` block is `steps.count + 1`.
    public var index: Int
    /// A short label: `do request ×5`, `advance 15s`, `expect`.
    public var label: String
    /// Where the step is written.
    public var location: ScenarioLocation?
    /// Its checks.
    public var assertions: [AssertionResult]
    /// The virtual time when the step began.
    package var startedAt: Duration?
    /// The first line of the scenario's transcript written during this step (lines before it
    /// belong to earlier steps); the transcript's length when the step wrote none. While the
    /// run goes, a place in its record's events.
    package var firstLine: Int?

    /// Creates a step result.
    package init(
        index: Int, label: String, location: ScenarioLocation?, assertions: [AssertionResult] = [], startedAt: Duration? = nil,
        firstLine: Int? = nil
    ) {
        self.index = index
        self.label = label
        self.location = location
        self.assertions = assertions
        self.startedAt = startedAt
        self.firstLine = firstLine
    }

    /// Whether every check held.
    public var passed: Bool { assertions.allSatisfy(\.passed) }
}
