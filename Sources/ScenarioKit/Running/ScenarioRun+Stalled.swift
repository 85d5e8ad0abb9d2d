import Foundation

extension ScenarioRun {
    /// The result of a run whose thread the stack keeps for good, made on the stall watch's
    /// thread from what may be read there: the scenario, the backend's log and the clock.
    func stalledResult(_ message: String) -> ScenarioResult {
        let policy = RedactionPolicy(scenario: scenario, driver: driver)
        let redactor = SecretRedactor(
            secrets: policy.secrets(of: scenario, requests: backend.requests), enabled: !options.revealSecrets, policy: policy)
        let cut = TranscriptCut(backend.transcriptLines, divergence: nil, limit: Self.transcriptLimit)
        return ScenarioResult(
            id: scenario.id, name: scenario.name, file: scenario.file, tags: scenario.tags, status: .error, steps: [],
            errorMessage: TerminalSafe.escape(redactor.redact(message), keepingNewlines: true), errorLocation: scenario.location,
            transcript: cut.lines.map { TerminalSafe.escape(Self.shortened(redactor.redact($0))) }, virtualTime: clock.now.offset,
            jobs: scheduler.workRun)
    }
}
