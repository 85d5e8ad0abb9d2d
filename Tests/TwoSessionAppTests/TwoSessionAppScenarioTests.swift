import ExampleStackChecks
import ScenarioKit
import Testing
import TwoSessionAppDriver

/// Every scenario under `Examples/TwoSessionApp/Scenarios/` passes on both routes.
@Suite struct TwoSessionAppScenarioTests {
    static let corpus = ExampleCorpus("Examples/TwoSessionApp/Scenarios", driver: TwoSessionAppDriver())

    @Test func theCorpusIsThere() {
        #expect(Self.corpus.scenarios.count >= 9, "\(Self.corpus.folder) holds \(Self.corpus.scenarios.count) scenarios")
    }

    @Test("two-session scenario passes (direct)", arguments: corpus.ids)
    func direct(id: String) async throws {
        let result = try await Self.corpus.run(id, route: .direct)
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test("two-session scenario passes (URLSession)", arguments: corpus.ids)
    func throughURLSession(id: String) async throws {
        let result = try await Self.corpus.run(id, route: .urlSession)
        #expect(result.status == .passed, "\(result.explanation)")
    }
}
