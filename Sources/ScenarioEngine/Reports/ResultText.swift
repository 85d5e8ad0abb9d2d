/// Plain-text renderings of parts of the result tree that several reports share, so the
/// console, JUnit and annotations say the same thing in the same words.
package enum ResultText {
    /// One line for a failed or errored scenario: its first problem, and how many more there are.
    package static func headline(_ scenario: ScenarioResult) -> String {
        let failures = scenario.failures
        if scenario.status == .error || failures.isEmpty {
            let lines = scenario.errorMessage.map { split($0).filter { !$0.isEmpty } } ?? []
            guard let first = lines.first else {
                return scenario.status == .skipped ? "skipped" : "scenario \(scenario.status.rawValue)"
            }
            return lines.count > 1 ? "\(first) (and \(lines.count - 1) more)" : first
        }
        // Causes first: an unmatched request before the wrong outcome it led to.
        let text = failures[0].summary
        return failures.count > 1 ? "\(text) (and \(failures.count - 1) more)" : text
    }

    /// Every failed assertion under a header naming its step, with expected/actual or the diff;
    /// the explored schedule that failed, then causes (unmatched requests, unused exchanges)
    /// first, before the symptoms they led to.
    package static func failureLines(_ scenario: ScenarioResult) -> [String] {
        var lines: [String] = []
        for (_, note) in scenario.failedChecks where note.isScheduleNote {
            lines.append(contentsOf: assertionLines(note))
        }
        for (_, cause) in scenario.failedChecks where cause.isCause {
            var causeLines = assertionLines(cause)
            causeLines[0] = "cause: " + causeLines[0]
            lines.append(contentsOf: causeLines)
        }
        func isSymptom(_ assertion: AssertionResult) -> Bool { !assertion.passed && !assertion.isCause && !assertion.isScheduleNote }
        for step in scenario.steps where step.assertions.contains(where: isSymptom) {
            var header = "step \(step.index) `\(step.label)`"
            if let location = step.location { header += " at \(location)" }
            lines.append(header)
            for assertion in step.assertions where isSymptom(assertion) {
                lines.append(contentsOf: assertionLines(assertion).map { "  " + $0 })
            }
        }
        return lines
    }

    /// The lines describing one failed assertion.
    package static func assertionLines(_ assertion: AssertionResult) -> [String] {
        var lines: [String] = []
        var first = assertion.summary
        if let location = assertion.location { first += " (\(location))" }
        lines.append(first)
        if let diff = assertion.diff, !diff.isEmpty {
            lines.append("  diff (- expected, + actual):")
            lines.append(contentsOf: trimmedLines(diff).map { "    " + $0 })
        } else {
            if let expected = assertion.expected { lines.append(contentsOf: labelled("expected", expected)) }
            if let actual = assertion.actual { lines.append(contentsOf: labelled("actual", actual)) }
        }
        return lines
    }

    /// The error message lines of an errored scenario (load issues or the runtime fault).
    package static func errorLines(_ scenario: ScenarioResult) -> [String] {
        guard let message = scenario.errorMessage, !message.isEmpty else { return [] }
        var lines = split(message)
        if let location = scenario.errorLocation, !message.contains(location.description) {
            lines[0] += " (\(location))"
        }
        return lines
    }

    /// Everything wrong with a scenario, errors first, then failed assertions.
    package static func problemLines(_ scenario: ScenarioResult) -> [String] {
        (scenario.status == .skipped ? [] : errorLines(scenario)) + failureLines(scenario)
    }

    private static func labelled(_ label: String, _ value: String) -> [String] {
        let parts = trimmedLines(value)
        if parts.count <= 1 { return ["  \(label): \(parts.first ?? "")"] }
        return ["  \(label):"] + parts.map { "    " + $0 }
    }

    /// The lines of a rendered value without the empty lines a trailing newline leaves.
    private static func trimmedLines(_ text: String) -> [String] {
        var lines = split(text)
        while lines.count > 1, lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
        return lines
    }

    /// Splits text into lines, accepting `\n` and `\r\n`.
    package static func split(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
    }
}

extension ScenarioResult {
    /// What went wrong (errors, then failed checks with their diffs) and the transcript: the
    /// message a test that expects the scenario to pass can show when it does not.
    public var explanation: String {
        (ResultText.problemLines(self) + ["transcript:"] + transcript).joined(separator: "\n")
    }
}
