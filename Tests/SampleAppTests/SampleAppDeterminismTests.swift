import Foundation
import SampleAppDriver
import ScenarioKit
import Testing

/// A hundred runs of a sample scenario on one route give one transcript, one final state, one
/// alert list and one timeline, byte for byte.
@Suite struct SampleAppDeterminismTests {
    @Test(arguments: SampleAppScenarioTests.corpus.map(\.id), [RunOptions.Route.direct, .urlSession])
    func hundredRunsGiveOneOutcome(id: String, route: RunOptions.Route) async throws {
        let scenario = try SampleAppScenarioTests.load(id)
        let runner = ScenarioRunner(driver: SampleAppScenarioTests.driver, options: RunOptions(route: route))
        let first = Self.fingerprint(await runner.run(scenario))
        var differing = 0
        for _ in 1..<100 where Self.fingerprint(await runner.run(scenario)) != first {
            differing += 1
        }
        #expect(differing == 0, "\(differing) of 99 repeated runs differed from the first")
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
