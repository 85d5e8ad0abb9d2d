import Foundation
import ScenarioKit
import Testing
import TwoSessionAppDriver

/// A hundred runs of a two-session scenario give one transcript, one final state, one alert list and
/// one timeline, byte for byte, on both routes.
@Suite struct TwoSessionAppDeterminismTests {
    @Test("100 direct runs give one outcome", arguments: TwoSessionAppScenarioTests.corpus.map(\.id))
    func direct(id: String) async throws {
        try await Self.check(id, route: .direct, runs: 100)
    }

    @Test("100 URLSession runs give one outcome", arguments: TwoSessionAppScenarioTests.corpus.map(\.id))
    func throughURLSession(id: String) async throws {
        try await Self.check(id, route: .urlSession, runs: 100)
    }

    static func check(_ id: String, route: RunOptions.Route, runs: Int) async throws {
        let scenario = try TwoSessionAppScenarioTests.load(id)
        let runner = ScenarioRunner(driver: TwoSessionAppScenarioTests.driver, options: RunOptions(route: route))
        let first = await runner.run(scenario)
        #expect(first.status == .passed, "\(first.explanation)")
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
