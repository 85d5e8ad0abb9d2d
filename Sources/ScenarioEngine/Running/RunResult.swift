/// The outcome of running a set of scenarios: the root of the result tree every report reads.
package struct RunResult: Sendable {
    /// One result per scenario, in the order they were given (not the order they finished).
    package var scenarios: [ScenarioResult]
    /// Wall time the whole run took.
    package var wallTime: Duration

    /// Creates a run result.
    package init(scenarios: [ScenarioResult], wallTime: Duration) {
        self.scenarios = scenarios
        self.wallTime = wallTime
    }

    /// How many scenarios ended with each status.
    package func count(_ status: ScenarioResult.Status) -> Int {
        scenarios.count { $0.status == status }
    }

    /// Whether nothing failed or errored.
    package var succeeded: Bool { scenarios.allSatisfy { $0.status == .passed || $0.status == .skipped } }

    /// The counts and wall time of this run.
    package var tally: RunTally {
        var tally = RunTally(wallTime: wallTime)
        for scenario in scenarios { tally.add(scenario.status) }
        return tally
    }
}

/// How many scenarios ended each way and how long the run took: what a summary and an exit
/// status need, kept apart from the results so that a long run need not hold them all.
package struct RunTally: Sendable, Hashable {
    /// Scenarios that passed.
    package var passed = 0
    /// Scenarios that failed.
    package var failed = 0
    /// Scenarios that could not load or finish.
    package var errors = 0
    /// Scenarios left out or not run.
    package var skipped = 0
    /// Wall time the whole run took.
    package var wallTime: Duration

    /// Creates a tally of nothing yet.
    package init(wallTime: Duration = .zero) { self.wallTime = wallTime }

    /// Counts one more result.
    package mutating func add(_ status: ScenarioResult.Status) {
        switch status {
        case .passed: passed += 1
        case .failed: failed += 1
        case .error: errors += 1
        case .skipped: skipped += 1
        }
    }

    /// How many scenarios ended with this status.
    package func count(_ status: ScenarioResult.Status) -> Int {
        switch status {
        case .passed: passed
        case .failed: failed
        case .error: errors
        case .skipped: skipped
        }
    }

    /// Every scenario counted.
    package var total: Int { passed + failed + errors + skipped }

    /// Whether nothing failed or errored.
    package var succeeded: Bool { failed == 0 && errors == 0 }
}

/// The outcome of one scenario.
public struct ScenarioResult: Sendable, Codable {
    /// How a scenario ended.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Every assertion held.
        case passed
        /// An assertion did not hold.
        case failed
        /// The scenario could not be loaded or could not run to the end (stuck, driver fault).
        case error
        /// Filtered out or not run.
        case skipped
    }

    /// The scenario's id (its path below the scenario folder, without `.json`).
    public var id: String
    /// Its name.
    public var name: String
    /// The file it came from.
    public var file: String
    /// Its tags.
    public var tags: [String]
    /// How it ended.
    public var status: Status
    /// Steps in order; the final `expect` block is the last entry, labelled `expect`.
    public var steps: [StepResult]
    /// Why it could not load or run, for `.error` (load issues, one per line, or the runtime fault).
    public var errorMessage: String?
    /// Where the error points, when it points somewhere.
    public var errorLocation: ScenarioLocation?
    /// The run's events as its reports show them: masked, cut after the first divergence and
    /// to its first and last halves (see ``Transcript``).
    package var entries: [TranscriptEntry]
    /// Wall time the scenario took.
    public var wallTime: Duration
    /// Virtual time that passed in the scenario.
    public var virtualTime: Duration
    /// How many Swift jobs of the stack ran (in the run reported).
    package var jobs = 0
    /// How many schedules the scenario ran under (1 unless exploring).
    public var schedules = 1
    /// Where its shrunk copy was written, when the plan shrinks failures and this one could be.
    package var shrunkCopy: String?
    /// What shrinking it did (`135 steps, 15 exchanges -> 1 step, 2 exchanges ...`), or why it could not.
    package var shrinkNote: String?
    /// Where it ran: the host's mode and capture level (`whole process, full capture`), which
    /// decide what of the stack a run owns (see ``ScenarioHost``).
    package var host = ""
    /// Under a schedule other than first in, first out: the departures from it the run took,
    /// which replay the run as an explicit schedule.
    package var scheduleTaken: ExplicitSchedule?

    /// Creates a scenario result.
    package init(
        id: String, name: String, file: String, tags: [String] = [], status: Status, steps: [StepResult] = [],
        errorMessage: String? = nil, errorLocation: ScenarioLocation? = nil, transcript: [String] = [],
        wallTime: Duration = .zero, virtualTime: Duration = .zero, jobs: Int = 0
    ) {
        self.jobs = jobs
        self.id = id
        self.name = name
        self.file = file
        self.tags = tags
        self.status = status
        self.steps = steps
        self.errorMessage = errorMessage
        self.errorLocation = errorLocation
        self.entries = transcript.map { TranscriptEntry(kind: .note, number: nil, time: "", text: $0) }
        self.wallTime = wallTime
        self.virtualTime = virtualTime
    }

    /// The `.error` result of a file that did not load: every problem found, one per line,
    /// pointing at the first.
    package init(unloadable file: DiscoveredScenario, _ failure: LoadFailure) {
        self.init(
            id: file.id, name: file.id, file: file.path, status: .error,
            errorMessage: failure.issues.isEmpty ? "could not load \(file.path)" : failure.description,
            errorLocation: failure.issues.first?.location)
    }

    /// Every assertion that did not hold, causes first (see ``failedChecks``).
    public var failures: [AssertionResult] { failedChecks.map(\.check) }

    /// Every assertion that did not hold with its step, causes first: after the explored schedule
    /// that failed (``AssertionResult/isScheduleNote``), requests no exchange matched and exchanges
    /// left unused (``AssertionResult/isCause``) come before the symptoms they led to (a wrong
    /// outcome, state or alert), which follow in step order.
    package var failedChecks: [(step: StepResult, check: AssertionResult)] {
        let all = steps.flatMap { step in step.assertions.filter { !$0.passed }.map { (step: step, check: $0) } }
        let symptoms = all.filter { !$0.check.isCause && !$0.check.isScheduleNote }
        return all.filter(\.check.isScheduleNote) + all.filter(\.check.isCause) + symptoms
    }

    /// The step during which the first request no exchange matched was sent: where the cause of
    /// the failure lies, though the check that names it is the final `expect`'s.
    package var stepSendingFirstUnmatched: StepResult? {
        guard let line = entries.firstIndex(where: { $0.kind == .unmatched }) else { return nil }
        return steps.last { $0.index >= 1 && ($0.firstLine ?? .max) <= line }
    }

    /// The exchanges up to the first divergence, one line each, secrets masked.
    public var transcript: [String] { entries.map(\.line) }

    /// The transcript as one block of text.
    public var transcriptText: String { transcript.joined(separator: "\n") }
}

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
    package var isCause: Bool { label == Self.unmatchedRequests || label == Self.unusedExchanges }

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
        diff: String? = nil, location: ScenarioLocation? = nil
    ) {
        self.label = label
        self.passed = passed
        self.message = message
        self.expected = expected
        self.actual = actual
        self.diff = diff
        self.location = location
    }
}
