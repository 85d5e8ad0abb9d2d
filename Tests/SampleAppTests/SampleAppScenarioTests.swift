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

    @Test("sample scenario passes on both routes", arguments: corpus.ids, RunOptions.Route.allCases)
    func passes(id: String, route: RunOptions.Route) async throws {
        let result = try await Self.corpus.run(id, route: route)
        #expect(result.status == .passed, "\(result.explanation)")
    }

    /// The example speaks the reference backend's contract: every scripted answer conforms to
    /// `Scenarios/openapi.yaml`, or is left out saying why.
    @Test func everyScriptedAnswerConformsToTheReferenceContract() throws {
        let (problems, conforming) = try Self.corpus.contractProblems(against: "Scenarios/openapi.yaml")
        #expect(problems.isEmpty && conforming > 10, "\(conforming) conform; \(problems)")
    }
}
