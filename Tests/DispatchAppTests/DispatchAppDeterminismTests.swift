import ExampleStackChecks
import Foundation
import ScenarioKit
import Testing

/// Repeated runs of a Dispatch app scenario give one transcript, one final state, one alert
/// list and one timeline, byte for byte, on both routes: the app's queues, `asyncAfter` and
/// timer must run in the scenario's order and on its virtual clock, not the machine's.
@Suite struct DispatchAppDeterminismTests {
    /// Runs per scenario and route: 100, or `DISPATCH_APP_DETERMINISM_RUNS` (at least 2).
    static let runs = ProcessInfo.processInfo.environment["DISPATCH_APP_DETERMINISM_RUNS"].flatMap { Int($0) }.map { max(2, $0) } ?? 100

    @Test("repeated direct runs give one outcome", arguments: DispatchAppScenarioTests.corpus.ids)
    func direct(id: String) async throws {
        try await Self.check(id, route: .direct)
    }

    @Test("repeated URLSession runs give one outcome", arguments: DispatchAppScenarioTests.corpus.ids)
    func throughURLSession(id: String) async throws {
        try await Self.check(id, route: .urlSession)
    }

    static func check(_ id: String, route: RunPlan.Route) async throws {
        // Where only Swift concurrency is captured, the stack's Dispatch work leaves the scenario:
        // every run must still end the way `concurrency-only.json` says, never another.
        if ExampleCorpus.capturesConcurrencyOnly {
            let expected = try DispatchAppScenarioTests.corpus.expectedUnderConcurrencyOnly(id, route: route)
            for _ in 0..<runs {
                let result = try await DispatchAppScenarioTests.corpus.run(id, route: route)
                #expect(ExampleCorpus.outcomeUnderConcurrencyOnly(result) == expected, "\(result.explanation)")
            }
            return
        }
        let (first, differing, firstDifference) = try await DispatchAppScenarioTests.corpus.repeated(id, route: route, runs: runs)
        #expect(first.status == .passed, "\(first.explanation)")
        #expect(differing == 0, "\(differing) of \(runs - 1) repeated runs differed from the first: \(firstDifference ?? "")")
    }
}
