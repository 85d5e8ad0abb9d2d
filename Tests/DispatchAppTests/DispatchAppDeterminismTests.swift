import DispatchAppDriver
import Foundation
import ScenarioKit
import Testing

/// Repeated runs of a Dispatch app scenario give one transcript, one final state, one alert
/// list and one timeline, byte for byte, on both routes: the app's queues, `asyncAfter` and
/// timer must run in the scenario's order and on its virtual clock, not the machine's.
@Suite struct DispatchAppDeterminismTests {
    /// Runs per scenario and route: 100, or `DISPATCH_APP_DETERMINISM_RUNS` (at least 2).
    static let runs = ProcessInfo.processInfo.environment["DISPATCH_APP_DETERMINISM_RUNS"].flatMap { Int($0) }.map { max(2, $0) } ?? 100

    @Test("repeated direct runs give one outcome", arguments: DispatchAppScenarioTests.corpus.map(\.id))
    func direct(id: String) async throws {
        try await Self.check(id, route: .direct, runs: Self.runs)
    }

    @Test("repeated URLSession runs give one outcome", arguments: DispatchAppScenarioTests.corpus.map(\.id))
    func throughURLSession(id: String) async throws {
        try await Self.check(id, route: .urlSession, runs: Self.runs)
    }

    static func check(_ id: String, route: RunOptions.Route, runs: Int) async throws {
        let scenario = try DispatchAppScenarioTests.load(id)
        let runner = ScenarioRunner(driver: DispatchAppScenarioTests.driver, options: RunOptions(route: route))
        let first = await runner.run(scenario)
        #expect(first.status == .passed, "\(first.explanation)")
        // A failing first run already says why; repeating it would only multiply the wait.
        guard first.status == .passed else { return }
        let reference = fingerprint(first)
        var differing = 0
        for _ in 1..<runs where fingerprint(await runner.run(scenario)) != reference {
            differing += 1
        }
        #expect(differing == 0, "\(differing) of \(runs - 1) repeated runs differed from the first")
    }

    /// The transcript plus every assertion's observed value (state, alerts, timeline, outcomes).
    static func fingerprint(_ result: ScenarioResult) -> String {
        var lines = [result.status.rawValue, "\(result.virtualTime)", result.errorMessage ?? ""] + result.transcript
        for step in result.steps {
            for assertion in step.assertions {
                lines.append("\(step.label) \(assertion.label) \(assertion.passed) \(assertion.actual ?? "-")")
            }
        }
        return lines.joined(separator: "\n")
    }
}
