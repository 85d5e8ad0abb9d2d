/// One check.
public struct AssertionResult: Sendable, Hashable, Codable {
    /// What was checked: `state`, `alerts`, `requests.total`, `outcome of copy 3`, `unused exchanges`.
    public var label: String
    /// Whether it held.
    public var passed: Bool
    /// One line saying what went wrong (empty when it held).
    public var message: String
    /// The expected value, rendered (secrets masked).
    public var expected: String?
    /// The actual value, rendered (secrets masked).
    public var actual: String?
    /// A readable expected-vs-actual diff (`-` expected, `+` actual), when both are multi-line.
    public var diff: String?
    /// Where the expectation is written.
    public var location: ScenarioLocation?
    /// What each failure it reports is about (one per mismatched key, unmatched request or
    /// unused exchange); empty when it held, and for notes that are not failures of the run
    /// (which schedule failed, a repeat that differed).
    public var subjects: [FailureSubject] = []

    /// The label of the check that lists requests no exchange matched.
    package static let unmatchedRequests = "unmatched requests"
    /// The label of the check that lists exchanges not used as scripted.
    package static let unusedExchanges = "unused exchanges"
    /// The label of the note an explored schedule's failure starts with: which schedule, how to replay it.
    package static let schedule = "schedule"

    /// Whether this is the note saying which explored schedule failed, which leads the result.
    package var isScheduleNote: Bool { label == Self.schedule }

    /// Whether this check names a cause rather than a symptom: a request no exchange matched (the
    /// stack got a 404 it was never meant to see) or an exchange left unused (an answer the
    /// stack never got). Reports put causes first.
    package var isCause: Bool { subjects.contains(where: \.isCause) }

    /// What went wrong in one line: the label, then the message; the label once when the message
    /// already begins with it (`state.auth: expected ...`).
    public var summary: String {
        if message.isEmpty { return "\(label) did not hold" }
        if message.hasPrefix(label), let next = message.dropFirst(label.count).first, next == "." || next == "[" || next == ":" {
            return message
        }
        return "\(label): \(message)"
    }

    /// Creates an assertion result.
    package init(
        label: String, passed: Bool, message: String = "", expected: String? = nil, actual: String? = nil,
        diff: String? = nil, location: ScenarioLocation? = nil, subjects: [FailureSubject] = []
    ) {
        self.label = label
        self.passed = passed
        self.message = message
        self.expected = expected
        self.actual = actual
        self.diff = diff
        self.location = location
        self.subjects = subjects
    }
}
