import Foundation
import ScenarioEngine

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
/// process-wide), under the plan a run would have with the trial's schedule; once a candidate
/// kept this process's scenario thread for good (it blocked it for real), the ones after it run
/// in `fallback`.
package struct InProcessOracle: ShrinkOracle {
    let driver: any ScenarioDriver
    let plan: RunPlan
    let fallback: (any ShrinkOracle)?

    package init(driver: any ScenarioDriver, plan: RunPlan, fallback: (any ShrinkOracle)? = nil) {
        self.driver = driver
        self.plan = plan
        self.fallback = fallback
    }

    package var width: Int { 1 }

    package func run(_ trial: ShrinkTrial) async -> ScenarioResult {
        if ScenarioHost.shared.isLost, let fallback { return await fallback.run(trial) }
        return await ScenarioRunner(driver: driver, plan: trial.plan(plan)).run(trial.scenario)
    }
}

extension ShrinkTrial {
    /// `plan`, run once under this trial's schedule.
    func plan(_ plan: RunPlan) -> RunPlan {
        var plan = plan
        plan.mode = schedule.isFIFO ? .once : .replay(schedule)
        return plan
    }
}

#if os(macOS) || os(Linux) || os(Windows)
    /// Runs candidates in worker processes, `width` at once; each worker loads the candidate's
    /// text as if read from the trial's file. A worker that dies or stalls costs that candidate
    /// only: its result is an error, which is not the same failure.
    package struct WorkerOracle: ShrinkOracle {
        let pool: WorkerPool
        let plan: RunPlan
        package let width: Int

        package init(launch: WorkerLaunch, plan: RunPlan, width: Int) {
            pool = WorkerPool(launch: launch)
            self.plan = plan
            self.width = max(1, width)
        }

        package func run(_ trial: ShrinkTrial) async -> ScenarioResult {
            switch await pool.run(text: trial.text, as: trial.file, plan: trial.plan(plan)) {
            case .finished(let executed):
                return executed.result
            case .died(let reason):
                var result = ScenarioResult(
                    id: trial.file.id, name: trial.scenario.name, file: trial.file.path, status: .error, errorMessage: reason,
                    errorLocation: trial.scenario.location)
                result.errorSubject = FailureSubject(.error, "worker died")
                return result
            }
        }
    }
#endif
