/// `--repeat`: the same scenario run again and again, each run's record compared with the
/// first's, event by event and whole (see ``RunRecord/firstDifference(from:)``).
extension ScenarioRunner {
    /// Runs the scenario `times` times; the first run that ends otherwise or does anything
    /// differently from the first fails the reported first run, saying which run and where.
    func repeated(_ scenario: Scenario, times: Int) async -> RunOutcome {
        var first = await single(scenario)
        var wallTime = first.result.wallTime
        for run in 2...max(2, times) where run <= times {
            // A run that kept this process's scenario thread for good is the answer: none can follow.
            if ScenarioHost.shared.isLost { break }
            let again = await single(scenario)
            wallTime += again.result.wallTime
            if let difference = Self.nondeterminism(first, again, run: run, location: scenario.location) {
                first.result.status = .failed
                first.result.differedOnRepeat = true
                first.result.steps.append(
                    StepResult(
                        index: (first.result.steps.last?.index ?? 0) + 1, label: "repeat ×\(times)", location: scenario.location,
                        assertions: [difference], firstLine: first.record.count))
                break
            }
        }
        first.result.wallTime = wallTime
        return first
    }

    /// The failed check saying how `other` (run number `run`) differs from `first`, or `nil`
    /// when both ended the same way having done the same things.
    static func nondeterminism(_ first: RunOutcome, _ other: RunOutcome, run: Int, location: ScenarioLocation?) -> AssertionResult? {
        let statusDiffers = first.result.status != other.result.status
        let event = first.record.firstDifference(from: other.record)
        guard statusDiffers || event != nil else { return nil }
        var details: [String] = []
        if statusDiffers {
            details.append("status \(first.result.status.rawValue) in run 1, \(other.result.status.rawValue) in run \(run)")
        }
        // A run that errored says why (an escape, a stuck run): without it the report shows only an empty transcript.
        if statusDiffers, other.result.status == .error, let error = other.result.errorMessage { details.append("run \(run): \(error)") }
        var expected: String?
        var actual: String?
        if let event {
            details.append("first differing event is \(event + 1) of \(max(first.record.count, other.record.count))")
            func line(_ record: RunRecord) -> String {
                event < record.count ? Transcript.line(record.events[event], in: record, masking: first.redactor) : "(end of the run)"
            }
            expected = line(first.record)
            actual = line(other.record)
        }
        if !DeterministicHashing.isOn {
            details.append(
                "a Dictionary or Set is walked in another order in every process and run unless the process starts with SWIFT_DETERMINISTIC_HASHING=1, as `\(ScenarioProcess.commandName) run` does"
            )
        }
        let message = "nondeterministic: run \(run) differed from run 1: " + details.joined(separator: "; ")
        return AssertionResult(label: "repeat", passed: false, message: message, expected: expected, actual: actual, location: location)
    }
}
