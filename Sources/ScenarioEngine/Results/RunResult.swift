/// The outcome of running a set of scenarios: the root of the result tree every report reads.
package struct RunResult: Sendable {
    /// One result per scenario, in the order they were given (not the order they finished).
    package var scenarios: [ScenarioResult]
    /// Wall time the whole run took.
    package var wallTime: Duration

    /// Creates a run result.
    package init(scenarios: [ScenarioResult], wallTime: Duration) {
        self.scenarios = scenarios
        self.wallTime = wallTime
    }

    /// How many scenarios ended with each status.
    package func count(_ status: ScenarioResult.Status) -> Int {
        scenarios.count { $0.status == status }
    }

    /// Whether nothing failed or errored.
    package var succeeded: Bool { scenarios.allSatisfy { $0.status == .passed || $0.status == .skipped } }

    /// The counts and wall time of this run.
    package var tally: RunTally {
        var tally = RunTally(wallTime: wallTime)
        for scenario in scenarios { tally.add(scenario.status) }
        return tally
    }
}
