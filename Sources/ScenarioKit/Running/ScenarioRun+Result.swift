import Foundation

/// A run's result as reports get it: masked once every secret the run met is known, the
/// transcript cut around its first divergence.
extension ScenarioRun {
    /// The result of a run that ended, pass, fail or error.
    func result(errorMessage: String?, errorLocation: ScenarioLocation?) -> ScenarioResult {
        let status: ScenarioResult.Status = errorMessage != nil ? .error : (steps.allSatisfy(\.passed) ? .passed : .failed)
        var result = reported(
            status: status, steps: steps, errorMessage: errorMessage, errorLocation: errorLocation, secrets: invariantSecrets,
            divergence: [divergence, backend.firstDivergence].compactMap { $0 }.min(), jobs: scheduler.jobsRun)
        if !options.schedule.isFIFO {
            result.scheduleTaken = ExplicitSchedule(picks: scheduler.scheduleDepartures, late: backend.lateAnswersTaken)
        }
        return result
    }

    /// The result of a run whose thread the stack keeps for good, made on the stall watch's
    /// thread from what may be read there: the scenario, the backend's log and the clock.
    func stalledResult(_ message: String) -> ScenarioResult {
        reported(
            status: .error, steps: [], errorMessage: message, errorLocation: scenario.location, secrets: [], divergence: nil,
            jobs: scheduler.workRun)
    }

    /// The most transcript lines a result keeps: the first and last halves.
    static let transcriptLimit = 400

    /// A transcript line cut for reports, after masking, so no part of a long token survives.
    static func shortened(_ line: String) -> String {
        line.count > 400 ? String(line.prefix(400)) + "…" : line
    }

    private func reported(
        status: ScenarioResult.Status, steps: [StepResult], errorMessage: String?, errorLocation: ScenarioLocation?, secrets: [String],
        divergence: Int?, jobs: Int
    ) -> ScenarioResult {
        let policy = RedactionPolicy(scenario: scenario, driver: driver)
        let redactor = SecretRedactor(
            secrets: policy.secrets(of: scenario, requests: backend.requests) + secrets, enabled: !options.revealSecrets, policy: policy)
        let cut = TranscriptCut(backend.transcriptLines, divergence: divergence, limit: Self.transcriptLimit)
        let masked = steps.map { step in
            var step = step
            step.assertions = step.assertions.map { Self.masked($0, by: redactor) }
            step.firstLine = step.firstLine.map(cut.place)
            return step
        }
        return ScenarioResult(
            id: scenario.id, name: scenario.name, file: scenario.file, tags: scenario.tags, status: status, steps: masked,
            errorMessage: errorMessage.map { TerminalSafe.escape(redactor.redact($0), keepingNewlines: true) },
            errorLocation: errorLocation, transcript: cut.lines.map { TerminalSafe.escape(Self.shortened(redactor.redact($0))) },
            virtualTime: clock.now.offset, jobs: jobs)
    }

    private static func masked(_ assertion: AssertionResult, by redactor: SecretRedactor) -> AssertionResult {
        var out = assertion
        out.message = TerminalSafe.escape(redactor.redact(out.message), keepingNewlines: true)
        out.expected = out.expected.map { TerminalSafe.escape(redactor.redact($0), keepingNewlines: true) }
        out.actual = out.actual.map { TerminalSafe.escape(redactor.redact($0), keepingNewlines: true) }
        out.diff = out.diff.map { TerminalSafe.escape(redactor.redact($0), keepingNewlines: true) }
        return out
    }
}
