import ExampleStackChecks
import SampleAppDriver
import ScenarioKit
import Testing

/// Every scenario under `Examples/SampleApp/Scenarios/` passes on both routes.
@Suite struct SampleAppScenarioTests {
    static let corpus = ExampleCorpus("Examples/SampleApp/Scenarios", driver: SampleAppDriver())

    @Test func theSampleCorpusIsThere() {
        #expect(Self.corpus.scenarios.count >= 12, "\(Self.corpus.folder) holds \(Self.corpus.scenarios.count) scenarios")
    }

    @Test("sample scenario passes (direct)", arguments: corpus.ids)
    func direct(id: String) async throws {
        let result = try await Self.corpus.run(id, route: .direct)
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test("sample scenario passes (URLSession)", arguments: corpus.ids)
    func throughURLSession(id: String) async throws {
        let result = try await Self.corpus.run(id, route: .urlSession)
        #expect(result.status == .passed, "\(result.explanation)")
    }
}
