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
        let driver = self.driver
        let options = self.options
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                let started = ContinuousClock.now
                var result = ScenarioRun(scenario: scenario, driver: driver, options: options).execute()
                result.wallTime = ContinuousClock.now - started
                continuation.resume(returning: result)
            }
            // Jobs of the stack under test run on this thread: give them room.
            thread.stackSize = 8 << 20
            thread.name = "scenario \(scenario.id)"
            thread.start()
        }
    }

    /// Runs the scenario first in, first out, then under explored schedules (or replays one), and
    /// returns the first failure, which says how to replay it, or the passing first run.
    public func run(_ scenario: Scenario, exploring exploration: Exploration) async -> ScenarioResult {
        await Explorer(driver: driver, options: options, exploration: exploration).run(scenario)
    }
}
