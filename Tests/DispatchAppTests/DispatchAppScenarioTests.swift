import DispatchAppDriver
import ExampleStackChecks
import ScenarioKit
import Testing

/// Every scenario under `Examples/DispatchApp/Scenarios/` passes on both routes.
@Suite struct DispatchAppScenarioTests {
    static let corpus = ExampleCorpus("Examples/DispatchApp/Scenarios", driver: DispatchAppDriver())

    @Test func theDispatchCorpusIsThere() {
        #expect(Self.corpus.scenarios.count >= 12, "\(Self.corpus.folder) holds \(Self.corpus.scenarios.count) scenarios")
    }

    @Test("every Dispatch app scenario loads", arguments: corpus.ids)
    func loads(id: String) throws {
        _ = try Self.corpus.load(id)
    }

    @Test("Dispatch app scenario passes (direct)", arguments: corpus.ids)
    func direct(id: String) async throws {
        let result = try await Self.corpus.run(id, route: .direct)
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test("Dispatch app scenario passes (URLSession)", arguments: corpus.ids)
    func throughURLSession(id: String) async throws {
        let result = try await Self.corpus.run(id, route: .urlSession)
        #expect(result.status == .passed, "\(result.explanation)")
    }
}
