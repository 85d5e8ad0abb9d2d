import Foundation
import HTTPCore

/// Runs one loaded scenario against a driver's stack, deterministically, on virtual time.
///
/// Each run gets its own thread, executor, clock and backend; runs share nothing, so any
/// number can go at once.
public struct ScenarioRunner: Sendable {
    private let driver: any ScenarioDriver
    private let options: RunOptions

    /// Creates a runner for a driver.
    public init(driver: any ScenarioDriver, options: RunOptions = RunOptions()) {
        self.driver = driver
        self.options = options
    }

    /// Runs the scenario and returns its result; never throws: faults become `.error` results.
    public func run(_ scenario: Scenario) async -> ScenarioResult {
        await run(scenario, recording: false).result
    }

    /// Runs the scenario and returns its result with what the scripted backend served, as HAR
    /// 1.2 (not redacted): every request of the run, whichever route and session of the stack
    /// sent it, with its answer. What `scenario export` writes.
    public func runRecording(_ scenario: Scenario) async -> (result: ScenarioResult, trace: HARLog) {
        let (result, trace) = await run(scenario, recording: true)
        return (result, trace ?? HARLog(creator: "SessionScenarios", entries: []))
    }

    private func run(_ scenario: Scenario, recording: Bool) async -> (result: ScenarioResult, trace: HARLog?) {
        let driver = self.driver
        let options = self.options
        StallWatch.endRunsThatStall()
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                let started = ContinuousClock.now
                let run = ScenarioRun(scenario: scenario, driver: driver, options: options)
                // Once: a run ended from the stall watch may still come back one day.
                let finished = ResultBox<Bool>()
                func finish(_ result: ScenarioResult) {
                    guard finished.setOnce(true) else { return }
                    var result = result
                    result.wallTime = ContinuousClock.now - started
                    continuation.resume(returning: (result, recording ? run.servedTrace : nil))
                }
                finish(run.execute(ifAbandoned: finish))
            }
            // Jobs of the stack under test run on this thread: give them room.
            thread.stackSize = 8 << 20
            thread.name = "scenario \(scenario.id)"
            thread.start()
        }
    }

    /// Runs the scenario first in, first out, then under explored schedules (or replays one), and
    /// returns the first failure, which says how to replay it, or the passing first run.
    /// - Parameter replayAdvice: how a failure says to replay its schedule (`--replay-schedule 7:42`
    ///   by default, as `scenario run` takes it).
    public func run(
        _ scenario: Scenario, exploring exploration: Exploration,
        replayAdvice: (@Sendable (JobSchedule) -> String)? = nil
    ) async -> ScenarioResult {
        await Explorer(driver: driver, options: options, exploration: exploration, replayAdvice: replayAdvice).run(scenario)
    }

    /// Runs the scenario `times` times; a run whose status or transcript differs from the first
    /// (JSON bodies compared as values) fails the result, saying which run differed and where.
    public func run(_ scenario: Scenario, times: Int) async -> ScenarioResult {
        await SuiteRunner.execute(scenario, runner: self, times: times)
    }
}
