import Foundation
import HTTPCore

/// Runs loaded scenarios against a driver's stack as a ``RunPlan`` says, deterministically, on
/// virtual time: the one way a scenario runs, for `scenario run`, its workers and test bundles.
///
/// Each run gets its own thread, executor, clock and backend, and takes its turn at the
/// process's ``ScenarioHost``.
public struct ScenarioRunner: Sendable {
    package let driver: any ScenarioDriver
    /// How scenarios run.
    public let plan: RunPlan
    /// What the orchestrator does with a failed result before it is reported (a shrunk copy).
    package var followUp: (any FailureFollowUp)?
    /// How a failed schedule says to replay it, where the run was started.
    package var replayAdvice: @Sendable (JobSchedule) -> String = { "--replay-schedule \($0)" }

    /// Creates a runner for a driver.
    public init(driver: any ScenarioDriver, plan: RunPlan = RunPlan()) {
        self.driver = driver
        self.plan = plan
    }

    /// Runs the scenario as the plan says (once, repeated, explored or replaying a schedule) and
    /// returns its result, masked for reports. Never throws: faults become `.error` results.
    public func run(_ scenario: Scenario) async -> ScenarioResult {
        await runReporting(scenario).result
    }

    /// The result of ``run(_:)`` with the record of the run it reports.
    package func runReporting(_ scenario: Scenario) async -> (result: ScenarioResult, record: RunRecord) {
        if plan.invariantsOnly, scenario.invariants.isEmpty {
            // It would pass having checked nothing.
            let skipped = ScenarioResult(
                id: scenario.id, name: scenario.name, file: scenario.file, tags: scenario.tags, status: .skipped,
                errorMessage: "no invariant governs it, and the plan checks invariants alone (--invariants-only)")
            return (skipped, RunRecord(clockStart: scenario.clockStart))
        }
        let outcome: RunOutcome
        switch plan.mode {
        case .once:
            outcome = await single(scenario)
        case .repeated(let times):
            outcome = await repeated(scenario, times: times)
        case .explored, .replay:
            outcome = await Explorer(runner: self).run(scenario)
        }
        var result = outcome.reported()
        if let followUp, result.status == .failed || result.status == .error {
            await followUp.followUp(failing: scenario, result: &result, runner: self)
        }
        return (result, outcome.record)
    }

    /// One run on a thread of its own, its jobs in the order `schedule` draws.
    func single(_ scenario: Scenario, schedule: JobSchedule = .fifo, length: Int = 100) async -> RunOutcome {
        let (driver, plan) = (self.driver, self.plan)
        ScenarioHost.shared.watchForStalls()
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                let started = ContinuousClock.now
                let run = ScenarioRun(scenario: scenario, driver: driver, plan: plan, schedule: schedule, scheduleLength: length)
                // Once: a run ended from the stall watch may still come back one day.
                let finished = ResultBox<Bool>()
                func finish(_ outcome: RunOutcome) {
                    guard finished.setOnce(true) else { return }
                    var outcome = outcome
                    outcome.result.wallTime = ContinuousClock.now - started
                    continuation.resume(returning: outcome)
                }
                finish(run.execute(ifAbandoned: finish))
            }
            // Jobs of the stack under test run on this thread: give them room.
            thread.stackSize = 8 << 20
            thread.name = "scenario \(scenario.id)"
            thread.start()
        }
    }
}
