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

    @Test("two-session scenario passes on both routes", arguments: corpus.ids, RunOptions.Route.allCases)
    func passes(id: String, route: RunOptions.Route) async throws {
        let result = try await Self.corpus.run(id, route: route)
        #expect(result.status == .passed, "\(result.explanation)")
    }

    /// The example speaks the reference backend's contract: every scripted answer conforms to
    /// `Scenarios/openapi.yaml`, or is left out saying why.
    @Test func everyScriptedAnswerConformsToTheReferenceContract() throws {
        let run = try Self.corpus.verified(against: "Scenarios/openapi.yaml")
        #expect(run.loadFailures.isEmpty)
        let problems = run.scenarios.flatMap(\.exchanges).flatMap { $0.findings.map(\.description) + $0.unchecked.map(\.description) }
        #expect(problems.isEmpty, "\(problems)")
        #expect((run.exchangeCounts[.conforms] ?? 0) > 10)
    }
}
