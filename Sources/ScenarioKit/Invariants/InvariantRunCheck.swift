import Foundation

/// The invariants of one finished run, as results: builds the ``RunRecord`` from the backend and
/// the driver, runs ``InvariantChecker`` and turns each violation into a failed check that names
/// the invariant, the requests that broke it and their transcript lines.
struct InvariantRunCheck {
    /// One check per invariant: passed, or failed with its violations.
    var assertions: [AssertionResult] = []
    /// Values the messages quote: the run's result masks them like every secret.
    var quoted: [String] = []

    /// The most violations one invariant lists.
    static let shownViolations = 5

    init(
        invariants: [Invariant], clockStart: Date, backend: ScriptedBackend, actions: [RunRecord.Action],
        alerts: () throws -> [JSONValue], timeline: () throws -> [JSONValue]
    ) throws {
        let needsAlerts = invariants.contains { if case .alertAtMost = $0.rule { true } else { false } }
        let needsTimeline = invariants.contains { if case .timeline = $0.rule { true } else { false } }
        let answers = backend.deliveredAnswers
        let record = RunRecord(
            clockStart: clockStart,
            requests: backend.requests.map {
                RunRecord.Request(
                    number: $0.number, request: $0.request, at: $0.arrivedAt.offset, order: $0.order, answer: answers[$0.number - 1])
            },
            actions: actions, alerts: needsAlerts ? try alerts() : [], timeline: needsTimeline ? try timeline() : [])
        let violations = InvariantChecker.check(invariants, record)
        let lines = backend.transcriptLines
        /// Where request `#n` is in the transcript: the line that sent it.
        func line(of number: Int) -> Int? {
            lines.firstIndex { $0.contains("] #\(number) → ") }
        }
        for invariant in invariants {
            let mine = violations.filter { $0.invariant == invariant.id }
            let label = "invariant \(invariant.id)"
            guard !mine.isEmpty else {
                assertions.append(AssertionResult(label: label, passed: true, location: invariant.location))
                continue
            }
            quoted += mine.flatMap(\.quoted)
            let numbers = Array(Set(mine.flatMap(\.requests))).sorted()
            let places = numbers.compactMap { number in line(of: number).map { (number, $0) } }
            var message = mine.prefix(Self.shownViolations).map(\.message).joined(separator: "; ")
            if mine.count > Self.shownViolations { message += "; and \(mine.count - Self.shownViolations) more" }
            let actual = places.map { number, index in "transcript line \(index + 1): \(lines[index])" }
            assertions.append(
                AssertionResult(
                    label: label, passed: false, message: message, expected: invariant.description.isEmpty ? nil : invariant.description,
                    actual: actual.isEmpty ? nil : actual.joined(separator: "\n"), location: invariant.location))
        }
    }
}
