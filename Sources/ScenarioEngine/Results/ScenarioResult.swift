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
    /// What the error is, for `.error`: stuck, escaped, or another fault by name.
    public var errorSubject: FailureSubject?
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
    /// How many requests each step had served by each exchange, from the run's record: step
    /// index (1-based, as ``StepResult/index``) to exchange id to requests. What lets the
    /// shrinker take a step out with the uses it made of each exchange.
    package var exchangeUse: [Int: [String: Int]] = [:]
    /// For each invariant the run broke, the exchanges that served the requests it names: the
    /// answers the bug alone may have needed.
    package var invariantExchanges: [String: [String]] = [:]
    /// Whether a run of `--repeat` did something differently from the first: the failure does
    /// not repeat the same way.
    package var differedOnRepeat = false

    /// Every failure of the result, as data, in the order its report gives them: the error
    /// first, then causes, then symptoms in step order; each once.
    public var failureSubjects: [FailureSubject] {
        var seen = Set<FailureSubject>()
        let all = (errorSubject.map { [$0] } ?? []) + failedChecks.flatMap(\.check.subjects)
        return all.filter { seen.insert($0).inserted }
    }

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
        errorSubject = FailureSubject(.error, "load")
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
