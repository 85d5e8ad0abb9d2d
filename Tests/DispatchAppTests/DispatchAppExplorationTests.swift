import DispatchAppDriver
import Foundation
import ScenarioKit
import Testing

/// Every DispatchApp scenario passes under 100 explored schedules (jobs, Dispatch blocks and answers
/// in flight together reordered): three seeds on the direct route, one through URLSession.
@Suite struct DispatchAppExplorationTests {
    @Test("100 schedules of three seeds pass (direct)", arguments: DispatchAppScenarioTests.corpus.map(\.id))
    func direct(id: String) async throws {
        try await Self.explore(id, route: .direct, seeds: [1, 2, 20261123])
    }

    @Test("100 schedules pass (URLSession)", arguments: DispatchAppScenarioTests.corpus.map(\.id))
    func throughURLSession(id: String) async throws {
        try await Self.explore(id, route: .urlSession, seeds: [1])
    }

    static func explore(_ id: String, route: RunOptions.Route, seeds: [UInt64]) async throws {
        let scenario = try DispatchAppScenarioTests.load(id)
        let runner = ScenarioRunner(driver: DispatchAppScenarioTests.driver, options: RunOptions(route: route))
        for seed in seeds {
            let result = await runner.run(scenario, exploring: .schedules(count: 100, seed: seed))
            #expect(result.status == .passed, "\(result.explanation)")
        }
    }
}
