import Foundation

/// A finished run: its record, how it ended (not masked yet), and the policy its reports mask it
/// by. Repeats and explored schedules compare outcomes; the one reported becomes a result once.
struct RunOutcome: Sendable {
    /// How it ended, with nothing masked; steps' `firstLine` are places in `record.events`.
    var result: ScenarioResult
    /// Everything it did.
    var record: RunRecord
    /// Masks what its reports show (disabled under `--show-secrets`).
    var redactor: SecretRedactor
    /// The event after which its transcript stops being worth showing: the first unmatched
    /// request, or where the first check failed.
    var divergence: Int?

    /// The result as reports get it: masked once by the run's policy, the transcript cut around
    /// its first divergence and to its first and last halves.
    func reported() -> ScenarioResult {
        var out = result
        let shown = Transcript.shown(record, redactor: redactor, divergence: divergence)
        out.entries = shown.entries
        out.steps = result.steps.map { step in
            var step = step
            step.assertions = step.assertions.map(mask)
            step.firstLine = step.firstLine.map(shown.place)
            return step
        }
        out.errorMessage = result.errorMessage.map { TerminalSafe.escape(redactor.redact($0), keepingNewlines: true) }
        out.errorSubject = result.errorSubject.map(mask)
        return out
    }

    /// A subject as reports show it: a request's path or a value the run saw may hold a secret.
    private func mask(_ subject: FailureSubject) -> FailureSubject {
        var out = subject
        out.name = TerminalSafe.escape(redactor.redact(out.name), keepingNewlines: false)
        out.observed = out.observed.map { TerminalSafe.escape(redactor.redact($0), keepingNewlines: false) }
        return out
    }

    private func mask(_ assertion: AssertionResult) -> AssertionResult {
        func masked(_ text: String) -> String { TerminalSafe.escape(redactor.redact(text), keepingNewlines: true) }
        var out = assertion
        out.message = masked(out.message)
        out.expected = out.expected.map(masked)
        out.actual = out.actual.map(masked)
        out.diff = out.diff.map(masked)
        out.subjects = out.subjects.map(mask)
        return out
    }
}

extension ScenarioRun {
    /// The outcome of a run that ended, pass, fail or error.
    func outcome(fault: RunFault?) -> RunOutcome {
        let status: ScenarioResult.Status = fault != nil ? .error : (steps.allSatisfy(\.passed) ? .passed : .failed)
        var outcome = outcome(
            status: status, steps: steps, actions: actionsSoFar, fault: fault, secrets: invariantSecrets, divergence: divergence,
            jobs: scheduler.jobsRun)
        if !schedule.isFIFO {
            // What this order did, as departures from first in, first out: what a shrink cuts down.
            outcome.result.scheduleTaken = ExplicitSchedule(picks: scheduler.scheduleDepartures, late: backend.lateAnswersTaken)
        }
        return outcome
    }

    /// The outcome of a run whose thread the stack keeps for good, made on the stall watch's
    /// thread from what may be read there: the scenario, the backend's record and the clock.
    func stalledOutcome(_ message: String) -> RunOutcome {
        outcome(
            status: .error, steps: [], actions: [],
            fault: RunFault(message: message, location: scenario.location, subject: FailureSubject(.error, "blocked thread")), secrets: [],
            divergence: nil, jobs: scheduler.workRun)
    }

    private func outcome(
        status: ScenarioResult.Status, steps: [StepResult], actions: [RunRecord.Action], fault: RunFault?, secrets: [String],
        divergence: Int?, jobs: Int
    ) -> RunOutcome {
        var record = backend.runRecord
        record.actions = actions
        let policy = RedactionPolicy(scenario: scenario, driver: driver)
        let redactor = SecretRedactor(
            secrets: policy.secrets(of: scenario, requests: record.requests) + secrets, enabled: !plan.revealSecrets, policy: policy)
        let firstUnmatched = record.events.firstIndex { if case .unmatched = $0.kind { true } else { false } }
        var result = ScenarioResult(
            id: scenario.id, name: scenario.name, file: scenario.file, tags: scenario.tags, status: status, steps: steps,
            errorMessage: fault?.message, errorLocation: fault?.location, virtualTime: clock.now.offset, jobs: jobs)
        result.errorSubject = fault?.subject
        result.host = ScenarioHost.shared.summary
        result.exchangeUse = Self.exchangeUse(of: record, steps: steps, stepCount: scenario.steps.count)
        result.invariantExchanges = invariantExchanges
        return RunOutcome(
            result: result, record: record, redactor: redactor,
            divergence: [divergence, firstUnmatched.map { $0 + 1 }].compactMap { $0 }.min())
    }

    /// Which exchanges served the requests each of the scenario's `stepCount` steps sent: a
    /// request belongs to the last step that began before the event that sent it (one sent as the
    /// run ends, to the last step).
    static func exchangeUse(of record: RunRecord, steps: [StepResult], stepCount: Int) -> [Int: [String: Int]] {
        let starts = steps.filter { $0.index >= 1 && $0.index <= stepCount }.compactMap { step in
            step.firstLine.map { (event: $0, step: step.index) }
        }
        var uses: [Int: [String: Int]] = [:]
        for request in record.requests {
            guard let exchange = request.exchange,
                let step = starts.last(where: { $0.event < request.order })?.step
            else { continue }
            uses[step, default: [:]][exchange, default: 0] += 1
        }
        return uses
    }
}
