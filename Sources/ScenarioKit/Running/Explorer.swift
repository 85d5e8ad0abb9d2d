/// What schedule exploration runs.
public enum Exploration: Sendable, Hashable {
    /// The first-in-first-out order, then `count - 1` schedules drawn from `seed`.
    case schedules(count: Int, seed: UInt64)
    /// Exactly one schedule, as a failure printed it.
    case replay(JobSchedule)
}

/// Runs a scenario under several orders of its jobs and reports the first that fails, with what
/// replays it.
struct Explorer: Sendable {
    let driver: any ScenarioDriver
    let options: RunOptions
    let exploration: Exploration
    /// How a failure says to replay its schedule where the run was started (`nil`: as
    /// `scenario run` takes it, `--replay-schedule 7:42`).
    var replayAdvice: (@Sendable (JobSchedule) -> String)? = nil

    func run(_ scenario: Scenario) async -> ScenarioResult {
        // The first-in-first-out run also measures how many jobs a schedule spans.
        var first = await ScenarioRunner(driver: driver, options: options).run(scenario)
        // It kept this process's scenario thread for good: no other order can run here.
        if Capture.turn.isLost { return first }
        var explored = options
        explored.scheduleLength = max(1, first.jobs)
        switch exploration {
        case .replay(let schedule):
            guard !schedule.isFIFO else { return first }
            explored.schedule = schedule
            var result = await ScenarioRunner(driver: driver, options: explored).run(scenario)
            result.wallTime += first.wallTime
            if result.status != .passed {
                annotate(&result, schedule, of: nil, failsFirstInFirstOut: first.status != .passed, scenario: scenario)
            }
            return result
        case .schedules(let count, let seed):
            guard first.status == .passed, count > 1 else {
                first.schedules = 1
                return first
            }
            var wallTime = first.wallTime
            for index in 1..<count {
                explored.schedule = JobSchedule(seed: seed, index: index)
                var result = await ScenarioRunner(driver: driver, options: explored).run(scenario)
                wallTime += result.wallTime
                if result.status != .passed {
                    result.wallTime = wallTime
                    result.schedules = index + 1
                    annotate(&result, explored.schedule, of: count, failsFirstInFirstOut: false, scenario: scenario)
                    return result
                }
            }
            first.wallTime = wallTime
            first.schedules = count
            return first
        }
    }

    /// Says which schedule failed, whether the first-in-first-out order fails too, and how to
    /// replay it, at the top of the result.
    private func annotate(
        _ result: inout ScenarioResult, _ schedule: JobSchedule, of count: Int?, failsFirstInFirstOut: Bool, scenario: Scenario
    ) {
        let which =
            schedule.explicit != nil
            ? "the schedule \(schedule)"
            : (count.map { "schedule \(schedule.index) of \($0)" } ?? "schedule \(schedule.index)") + " (seed \(schedule.seed))"
        let order = failsFirstInFirstOut ? "as under the first-in-first-out order" : "not under the first-in-first-out order"
        let note = "failed under \(which), \(order); replay it with \(replayAdvice?(schedule) ?? "--replay-schedule \(schedule)")"
        if let message = result.errorMessage {
            result.errorMessage = note + ": " + message
        } else {
            result.steps.insert(
                StepResult(
                    index: 0, label: "schedule \(schedule)", location: scenario.location,
                    assertions: [
                        AssertionResult(label: AssertionResult.schedule, passed: false, message: note, location: scenario.location)
                    ]),
                at: 0)
        }
    }
}
