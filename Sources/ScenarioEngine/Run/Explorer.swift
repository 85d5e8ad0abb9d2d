/// Runs a scenario under several orders of its jobs and reports the first that fails, with what
/// replays it: a plan's `.explored` and `.replay` modes.
struct Explorer: Sendable {
    let runner: ScenarioRunner

    func run(_ scenario: Scenario) async -> RunOutcome {
        if case .replay(let schedule) = runner.plan.mode, schedule.explicit != nil {
            // An explicit schedule names its departures itself: nothing to measure first.
            return await runner.single(scenario, schedule: schedule)
        }
        // The first-in-first-out run also measures how many jobs a schedule spans.
        var first = await runner.single(scenario)
        // It kept this process's scenario thread for good: no other order can run here.
        if ScenarioHost.shared.isLost { return first }
        let length = max(1, first.result.jobs)
        switch runner.plan.mode {
        case .replay(let schedule):
            guard !schedule.isFIFO else { return first }
            var replayed = await runner.single(scenario, schedule: schedule, length: length)
            replayed.result.wallTime += first.result.wallTime
            if replayed.result.status != .passed {
                annotate(&replayed, schedule, of: nil, failsFirstInFirstOut: first.result.status != .passed, scenario: scenario)
            }
            return replayed
        case .explored(let count, let seed):
            guard first.result.status == .passed, count > 1 else { return first }
            var wallTime = first.result.wallTime
            for index in 1..<count {
                let schedule = JobSchedule(seed: seed, index: index)
                var explored = await runner.single(scenario, schedule: schedule, length: length)
                wallTime += explored.result.wallTime
                if explored.result.status != .passed {
                    explored.result.wallTime = wallTime
                    explored.result.schedules = index + 1
                    annotate(&explored, schedule, of: count, failsFirstInFirstOut: false, scenario: scenario)
                    return explored
                }
            }
            first.result.wallTime = wallTime
            first.result.schedules = count
            return first
        case .once, .repeated:
            return first
        }
    }

    /// Says which schedule failed, whether the first-in-first-out order fails too, and how to
    /// replay it, at the top of the result.
    private func annotate(
        _ outcome: inout RunOutcome, _ schedule: JobSchedule, of count: Int?, failsFirstInFirstOut: Bool, scenario: Scenario
    ) {
        let which =
            schedule.explicit != nil
            ? "the schedule \(schedule)"
            : (count.map { "schedule \(schedule.index) of \($0)" } ?? "schedule \(schedule.index)") + " (seed \(schedule.seed))"
        let order = failsFirstInFirstOut ? "as under the first-in-first-out order" : "not under the first-in-first-out order"
        let note = "failed under \(which), \(order); replay it with \(runner.replayAdvice(schedule))"
        if let message = outcome.result.errorMessage {
            outcome.result.errorMessage = note + ": " + message
        } else {
            outcome.result.steps.insert(
                StepResult(
                    index: 0, label: "schedule \(schedule)", location: scenario.location,
                    assertions: [
                        AssertionResult(label: AssertionResult.schedule, passed: false, message: note, location: scenario.location)
                    ], firstLine: 0),
                at: 0)
        }
    }
}
