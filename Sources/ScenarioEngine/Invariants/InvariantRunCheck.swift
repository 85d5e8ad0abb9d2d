import Foundation

/// The invariants of one finished run, as results: reads the run's ``RunRecord`` (and the driver's
/// alerts and timeline when needed), runs ``InvariantChecker`` and turns each violation into a failed check that names
/// the invariant, the requests that broke it and the transcript lines that sent them.
struct InvariantRunCheck {
    /// One check per invariant: passed, or failed with its violations.
    var assertions: [AssertionResult] = []
    /// Values the messages quote: the run's result masks them like every secret.
    var quoted: [String] = []
    /// For each invariant that broke, the exchanges that served the requests it names, in the
    /// order of those requests (an exchange once).
    var involvedExchanges: [String: [String]] = [:]

    /// The most violations one invariant lists.
    static let shownViolations = 5

    /// Checks `record`, which has every request and action of the run; `alerts` and `timeline`
    /// are asked for only when an invariant needs them.
    init(
        invariants: [Invariant], record: RunRecord, alerts: () throws -> [JSONValue], timeline: () throws -> [JSONValue]
    ) throws {
        var record = record
        if invariants.contains(where: { if case .alertAtMost = $0.rule { true } else { false } }) { record.alerts = try alerts() }
        if invariants.contains(where: { if case .timeline = $0.rule { true } else { false } }) { record.timeline = try timeline() }
        let violations = InvariantChecker.check(invariants, record)
        for invariant in invariants {
            let mine = violations.filter { $0.invariant == invariant.id }
            let label = "invariant \(invariant.id)"
            guard !mine.isEmpty else {
                assertions.append(AssertionResult(label: label, passed: true, location: invariant.location))
                continue
            }
            quoted += mine.flatMap(\.quoted)
            // Each request by the line that sent it, as the transcript shows it.
            let numbers = Array(Set(mine.flatMap(\.requests))).sorted()
            var involved: [String] = []
            for number in numbers where number >= 1 && number <= record.requests.count {
                if let exchange = record.requests[number - 1].exchange, !involved.contains(exchange) { involved.append(exchange) }
            }
            involvedExchanges[invariant.id] = involved
            let sent = numbers.compactMap { number in
                number >= 1 && number <= record.requests.count ? record.events[record.requests[number - 1].order - 1] : nil
            }
            var message = mine.prefix(Self.shownViolations).map(\.message).joined(separator: "; ")
            if mine.count > Self.shownViolations { message += "; and \(mine.count - Self.shownViolations) more" }
            let actual = sent.map { Transcript.line($0, in: record) }
            assertions.append(
                AssertionResult(
                    label: label, passed: false, message: message, expected: invariant.description.isEmpty ? nil : invariant.description,
                    actual: actual.isEmpty ? nil : actual.joined(separator: "\n"), location: invariant.location,
                    subjects: [FailureSubject(.invariant, invariant.id)]))
        }
    }
}
