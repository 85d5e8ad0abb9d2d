import ExampleStackChecks
import ScenarioKit
import Testing

/// Every DispatchApp scenario passes under 100 explored schedules (jobs, Dispatch blocks and answers
/// in flight together reordered): three seeds on the direct route, one through URLSession.
@Suite struct DispatchAppExplorationTests {
    @Test("100 schedules of three seeds pass (direct)", arguments: DispatchAppScenarioTests.corpus.ids)
    func direct(id: String) async throws {
        for result in try await DispatchAppScenarioTests.corpus.explored(id, route: .direct, seeds: [1, 2, 20261123]) {
            #expect(result.status == .passed, "\(result.explanation)")
        }
    }

    @Test("100 schedules pass (URLSession)", arguments: DispatchAppScenarioTests.corpus.ids)
    func throughURLSession(id: String) async throws {
        for result in try await DispatchAppScenarioTests.corpus.explored(id, route: .urlSession, seeds: [1]) {
            #expect(result.status == .passed, "\(result.explanation)")
        }
    }
}
