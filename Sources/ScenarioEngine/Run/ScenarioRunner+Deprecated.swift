/// The ways to run a scenario before one ``RunPlan`` said how, kept for a release.

/// What schedule exploration runs.
@available(*, deprecated, message: "use RunPlan.Mode: .explored(schedules:seed:) or .replay(_:)")
public enum Exploration: Sendable, Hashable {
    /// The first-in-first-out order, then `count - 1` schedules drawn from `seed`.
    case schedules(count: Int, seed: UInt64)
    /// Exactly one schedule, as a failure printed it.
    case replay(JobSchedule)
}

extension ScenarioRunner {
    /// Creates a runner for a driver.
    @available(*, deprecated, renamed: "init(driver:plan:)")
    public init(driver: any ScenarioDriver, options: RunPlan) {
        self.init(driver: driver, plan: options)
    }

    /// Runs the scenario first in, first out, then under explored schedules (or replays one).
    @available(*, deprecated, message: "give the plan mode .explored(schedules:seed:) or .replay(_:) and call run(_:)")
    public func run(
        _ scenario: Scenario, exploring exploration: Exploration, replayAdvice: (@Sendable (JobSchedule) -> String)? = nil
    ) async -> ScenarioResult {
        var plan = self.plan
        switch exploration {
        case .schedules(let count, let seed): plan.mode = .explored(schedules: count, seed: seed)
        case .replay(let schedule): plan.mode = .replay(schedule)
        }
        var runner = ScenarioRunner(driver: driver, plan: plan)
        if let replayAdvice { runner.replayAdvice = replayAdvice }
        return await runner.run(scenario)
    }

    /// Runs the scenario `times` times; a run that differs from the first fails the result.
    @available(*, deprecated, message: "give the plan mode .repeated(_:) and call run(_:)")
    public func run(_ scenario: Scenario, times: Int) async -> ScenarioResult {
        var plan = self.plan
        plan.mode = times > 1 ? .repeated(times) : .once
        return await ScenarioRunner(driver: driver, plan: plan).run(scenario)
    }

}
