import Foundation

/// A scenario's expectations checked against what a run observed. Pure: the run gathers what the
/// driver and the backend say, and these turn it into results.
enum ExpectationChecks {
    /// What a run observed for one `expect` or `check` block (only what the block asks about).
    struct Observed {
        var state: JSONValue?
        var alerts: [JSONValue]?
        var timeline: [JSONValue]?
        var requests: [RunRecord.Request]
    }

    /// An action's result against the outcome a step expects.
    static func outcome(_ result: ActionResult?, against outcome: Outcome?, label: String, location: ScenarioLocation) -> AssertionResult {
        guard let outcome else { return AssertionResult(label: label, passed: true) }
        guard let result else {
            return AssertionResult(label: label, passed: false, message: "the action did not finish", location: location)
        }
        switch (outcome, result) {
        case (.ok, .value):
            return AssertionResult(label: label, passed: true)
        case (.value(let want), .value(let have)):
            return compare(label: label, subject: "", expected: want, actual: have, location: { _ in location })
        case (.error(let want), .error(let have)):
            let expected: JSONValue = want.stringValue.map { ["code": .string($0)] } ?? want
            return compare(label: label, subject: "", expected: expected, actual: have, location: { _ in location })
        case (_, .value(let have)):
            return AssertionResult(
                label: label, passed: false, message: "expected the action to fail, but it succeeded", expected: outcomeText(outcome),
                actual: "value " + have.compactText,
                location: location)
        case (_, .error(let have)):
            return AssertionResult(
                label: label, passed: false,
                message: "expected the action to succeed, but it failed with \(have["code"]?.stringValue ?? have.compactText)",
                expected: outcomeText(outcome), actual: "error " + have.compactText, location: location)
        }
    }

    private static func outcomeText(_ outcome: Outcome) -> String {
        switch outcome {
        case .ok: "ok"
        case .value(let value): "value " + value.compactText
        case .error(let value): "error " + value.compactText
        }
    }

    /// One `expect` or `check` block against what the run observed.
    static func evaluate(_ expect: Expectations, observed: Observed, exchanges: [Exchange]) -> [AssertionResult] {
        var out: [AssertionResult] = []
        // Each failed check points at the key that failed, not at the block.
        let location = expect.location(of:)
        if let state = expect.state, let snapshot = observed.state {
            out.append(compare(label: "state", subject: "state", expected: state, actual: snapshot, location: location))
        }
        if let alerts = expect.alerts, let actual = observed.alerts {
            out.append(compare(label: "alerts", subject: "alerts", expected: .array(alerts), actual: .array(actual), location: location))
        }
        if let timeline = expect.timeline, let actual = observed.timeline {
            out.append(
                compare(label: "timeline", subject: "timeline", expected: .array(timeline), actual: .array(actual), location: location))
        }
        if let requests = expect.requests {
            out += RequestLogCheck(log: observed.requests, exchanges: exchanges).evaluate(requests, location: location)
        }
        return out
    }

    /// Requests no exchange matched and exchanges not used as scripted, unless the scenario relaxes them.
    static func exhaustiveness(
        of scenario: Scenario, record: RunRecord, useCounts counts: [Int]
    ) -> [AssertionResult] {
        var assertions: [AssertionResult] = []
        if !scenario.relax.unmatchedRequests {
            let unmatched = record.requests.filter { $0.exchange == nil }
            if !unmatched.isEmpty {
                let lines = unmatched.map {
                    "#\($0.number) \($0.request.method) \($0.request.target)\(record.nearMiss(of: $0.number))"
                }
                assertions.append(
                    AssertionResult(
                        label: "unmatched requests", passed: false,
                        message: "\(unmatched.count) request(s) matched no exchange; script them or set relax.unmatchedRequests",
                        expected: "none",
                        actual: lines.joined(separator: "\n"), location: scenario.location))
            }
        }
        if !scenario.relax.unusedExchanges {
            let unused = scenario.exchanges.enumerated().filter { index, exchange in
                !exchange.optional && counts[index] < (exchange.times ?? 1)
            }
            if !unused.isEmpty {
                let lines = unused.map { index, exchange in
                    "'\(exchange.id)' served \(counts[index]) of \(exchange.times.map(String.init) ?? "at least 1")"
                }
                assertions.append(
                    AssertionResult(
                        label: "unused exchanges", passed: false,
                        message: "\(unused.count) exchange(s) were not used as scripted; remove them, fix `times`, or mark them optional",
                        expected: "every exchange used", actual: lines.joined(separator: "\n"), location: unused.first?.element.location))
            }
        }
        return assertions
    }

    /// `subject` starts each mismatch's path in the message (`state` gives `state.auth: ...`);
    /// `location` finds where the first mismatch's key is written from that path.
    static func compare(
        label: String, subject: String, expected: JSONValue, actual: JSONValue, location: (String) -> ScenarioLocation?
    ) -> AssertionResult {
        let mismatches = JSONMatch.mismatches(expected: expected, actual: actual)
        guard !mismatches.isEmpty else { return AssertionResult(label: label, passed: true) }
        let shown = JSONMatch.project(actual, onto: expected)
        let expectedText = expected.prettyText
        let actualText = shown.prettyText
        func place(_ path: String) -> String {
            let full = subject + (subject.isEmpty && path.hasPrefix(".") ? String(path.dropFirst()) : path)
            return full.isEmpty ? "" : full + ": "
        }
        let message =
            mismatches.prefix(5).map { "\(place($0.path))expected \($0.expected), got \($0.actual)" }.joined(separator: "; ")
            + (mismatches.count > 5 ? "; and \(mismatches.count - 5) more" : "")
        return AssertionResult(
            label: label, passed: false, message: message, expected: expectedText, actual: actualText,
            diff: TextDiff.lines(expected: expectedText, actual: actualText), location: location(subject + mismatches[0].path))
    }
}
