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

    /// An action's result against the outcome a step expects; `action` names it in the failure.
    static func outcome(
        _ result: ActionResult?, against outcome: Outcome?, action: String, label: String, location: ScenarioLocation
    ) -> AssertionResult {
        guard let outcome else { return AssertionResult(label: label, passed: true) }
        func failed(_ observed: String) -> [FailureSubject] { [FailureSubject(.outcome, action, observed: observed)] }
        guard let result else {
            return AssertionResult(
                label: label, passed: false, message: "the action did not finish", location: location, subjects: failed("did not finish"))
        }
        // A value or an error compared with what the step wants: each mismatch by its place.
        func seen(_ mismatches: [JSONMatch.Mismatch]) -> [FailureSubject] {
            failed(
                mismatches.map { mismatch in
                    let place = mismatch.path.hasPrefix(".") ? String(mismatch.path.dropFirst()) : mismatch.path
                    return place.isEmpty ? "got \(mismatch.actual)" : "\(place) got \(mismatch.actual)"
                }.joined(separator: "; "))
        }
        func compared(_ want: JSONValue, _ have: JSONValue) -> AssertionResult {
            compare(label: label, path: "", expected: want, actual: have, location: { _ in location }, seen)
        }
        switch (outcome, result) {
        case (.ok, .value):
            return AssertionResult(label: label, passed: true)
        case (.value(let want), .value(let have)):
            return compared(want, have)
        case (.error(let want), .error(let have)):
            return compared(want.stringValue.map { ["code": .string($0)] } ?? want, have)
        case (_, .value(let have)):
            return AssertionResult(
                label: label, passed: false, message: "expected the action to fail, but it succeeded", expected: outcomeText(outcome),
                actual: "value " + have.compactText, location: location, subjects: failed("succeeded"))
        case (_, .error(let have)):
            let code = have["code"]?.stringValue ?? have.compactText
            return AssertionResult(
                label: label, passed: false, message: "expected the action to succeed, but it failed with \(code)",
                expected: outcomeText(outcome), actual: "error " + have.compactText, location: location,
                subjects: failed("failed with \(code)"))
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
            // A key by its name without indices: an element's index moves as a run changes.
            out.append(
                compare(label: "state", path: "state", expected: state, actual: snapshot, location: location) { mismatches in
                    mismatches.map { FailureSubject(.expectation, "state" + $0.path.prefix { $0 != "[" }, observed: "got \($0.actual)") }
                })
        }
        // Alerts and timelines by their name alone, each mismatch by what it saw.
        func list(_ name: String) -> ([JSONMatch.Mismatch]) -> [FailureSubject] {
            { mismatches in mismatches.map { FailureSubject(.expectation, name, observed: "got \($0.actual)") } }
        }
        if let alerts = expect.alerts, let actual = observed.alerts {
            out.append(
                compare(
                    label: "alerts", path: "alerts", expected: .array(alerts), actual: .array(actual), location: location, list("alerts")))
        }
        if let timeline = expect.timeline, let actual = observed.timeline {
            out.append(
                compare(
                    label: "timeline", path: "timeline", expected: .array(timeline), actual: .array(actual), location: location,
                    list("timeline")))
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
                        label: AssertionResult.unmatchedRequests, passed: false,
                        message: "\(unmatched.count) request(s) matched no exchange; script them or set relax.unmatchedRequests",
                        expected: "none", actual: lines.joined(separator: "\n"), location: scenario.location,
                        subjects: unmatched.map { FailureSubject(.unmatched, "\($0.request.method) \($0.request.path)") }))
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
                        label: AssertionResult.unusedExchanges, passed: false,
                        message: "\(unused.count) exchange(s) were not used as scripted; remove them, fix `times`, or mark them optional",
                        expected: "every exchange used", actual: lines.joined(separator: "\n"), location: unused.first?.element.location,
                        subjects: unused.map { FailureSubject(.unused, $0.element.id) }))
            }
        }
        return assertions
    }

    /// `path` starts each mismatch's path in the message (`state` gives `state.auth: ...`);
    /// `location` finds where the first mismatch's key is written from that path, and `subjects`
    /// says what the mismatches are about.
    static func compare(
        label: String, path: String, expected: JSONValue, actual: JSONValue, location: (String) -> ScenarioLocation?,
        _ subjects: ([JSONMatch.Mismatch]) -> [FailureSubject]
    ) -> AssertionResult {
        let mismatches = JSONMatch.mismatches(expected: expected, actual: actual)
        guard !mismatches.isEmpty else { return AssertionResult(label: label, passed: true) }
        let shown = JSONMatch.project(actual, onto: expected)
        let expectedText = expected.prettyText
        let actualText = shown.prettyText
        func place(_ mismatch: String) -> String {
            let full = path + (path.isEmpty && mismatch.hasPrefix(".") ? String(mismatch.dropFirst()) : mismatch)
            return full.isEmpty ? "" : full + ": "
        }
        let message =
            mismatches.prefix(5).map { "\(place($0.path))expected \($0.expected), got \($0.actual)" }.joined(separator: "; ")
            + (mismatches.count > 5 ? "; and \(mismatches.count - 5) more" : "")
        return AssertionResult(
            label: label, passed: false, message: message, expected: expectedText, actual: actualText,
            diff: TextDiff.lines(expected: expectedText, actual: actualText), location: location(path + mismatches[0].path),
            subjects: subjects(mismatches))
    }
}
