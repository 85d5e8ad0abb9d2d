import Foundation

/// One candidate of a shrink, ready to run: its text, what the loader made of it, where it is
/// taken to be (which invariant files govern it, where its `file` bodies are), and the schedule.
package struct ShrinkTrial: Sendable {
    package var text: String
    package var scenario: Scenario
    package var file: DiscoveredScenario
    package var schedule: JobSchedule
}

/// Runs the shrinker's candidates: the one seam between the shrinker and the engine. A run is
/// a fresh run of the scenario, as `scenario run` would do it; its result is read by
/// ``FailureFingerprint``.
package protocol ShrinkOracle: Sendable {
    /// How many trials it runs at once.
    var width: Int { get }
    /// Runs one trial.
    func run(_ trial: ShrinkTrial) async -> ScenarioResult
}

extension ShrinkOracle {
    /// Runs `trials`, ``width`` at once, and returns their results in order.
    func run(_ trials: [ShrinkTrial]) async -> [ScenarioResult] {
        var results: [ScenarioResult] = []
        var start = 0
        while start < trials.count {
            let batch = Array(trials[start..<min(trials.count, start + width)])
            let done = await withTaskGroup(of: (Int, ScenarioResult).self) { group in
                for (position, trial) in batch.enumerated() { group.addTask { (position, await run(trial)) } }
                var done: [(Int, ScenarioResult)] = []
                for await result in group { done.append(result) }
                return done.sorted { $0.0 < $1.0 }.map(\.1)
            }
            results += done
            start += batch.count
        }
        return results
    }
}

/// Runs each candidate in this process, one at a time (what the capture installs is
/// process-wide), with the options a run would have; once a candidate kept this process's
/// scenario thread for good (it blocked it for real), the ones after it run in `fallback`.
package struct InProcessOracle: ShrinkOracle {
    let driver: any ScenarioDriver
    let options: RunOptions
    let fallback: (any ShrinkOracle)?

    package init(driver: any ScenarioDriver, options: RunOptions, fallback: (any ShrinkOracle)? = nil) {
        self.driver = driver
        self.options = options
        self.fallback = fallback
    }

    package var width: Int { 1 }

    package func run(_ trial: ShrinkTrial) async -> ScenarioResult {
        if Capture.turn.isLost, let fallback { return await fallback.run(trial) }
        var options = self.options
        if trial.schedule.explicit == nil, !trial.schedule.isFIFO {
            // A seeded schedule spans the first-in-first-out run's jobs: the explorer measures it.
            return await ScenarioRunner(driver: driver, options: options).run(trial.scenario, exploring: .replay(trial.schedule))
        }
        options.schedule = trial.schedule
        return await ScenarioRunner(driver: driver, options: options).run(trial.scenario)
    }
}

#if os(macOS) || os(Linux) || os(Windows)
    /// Runs candidates in worker processes, `width` at once; each worker loads the candidate's
    /// text as if read from the trial's file. A worker that dies or stalls costs that candidate
    /// only: its result is an error, which is not the same failure.
    package struct WorkerOracle: ShrinkOracle {
        let pool: WorkerPool
        package let width: Int

        package init(launch: WorkerLaunch, width: Int) {
            pool = WorkerPool(launch: launch)
            self.width = max(1, width)
        }

        package func run(_ trial: ShrinkTrial) async -> ScenarioResult {
            switch await pool.run(text: trial.text, as: trial.file, schedule: trial.schedule) {
            case .finished(let executed):
                return executed.result
            case .died(let reason):
                return ScenarioResult(
                    id: trial.file.id, name: trial.scenario.name, file: trial.file.path, status: .error, errorMessage: reason,
                    errorLocation: trial.scenario.location)
            }
        }
    }
#endif
