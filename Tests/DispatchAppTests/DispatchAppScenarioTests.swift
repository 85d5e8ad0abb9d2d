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

    @Test("Dispatch app scenario passes on both routes", arguments: corpus.ids, RunPlan.Route.allCases)
    func passes(id: String, route: RunPlan.Route) async throws {
        let result = try await Self.corpus.run(id, route: route)
        // Where only Swift concurrency is captured (what Apple platforms get), what each scenario
        // does is written down beside the scenarios, and must be the same on every run.
        guard !ExampleCorpus.capturesConcurrencyOnly else {
            let outcome = ExampleCorpus.outcomeUnderConcurrencyOnly(result)
            #expect(try outcome == Self.corpus.expectedUnderConcurrencyOnly(id, route: route), "\(result.explanation)")
            return
        }
        #expect(result.status == .passed, "\(result.explanation)")
    }

    /// The example speaks the reference backend's contract: every scripted answer conforms to
    /// `Scenarios/openapi.yaml`, or is left out saying why.
    @Test func everyScriptedAnswerConformsToTheReferenceContract() throws {
        let (problems, conforming) = try Self.corpus.contractProblems(against: "Scenarios/openapi.yaml")
        #expect(problems.isEmpty && conforming > 10, "\(conforming) conform; \(problems)")
    }

    /// Its scenarios export as a pact whose every scenario passed (with `SCENARIO_PACT_DIR` set,
    /// the file is written there for the real Pact tools).
    @Test func itsScenariosExportAsAPact() async throws {
        let (interactions, incomplete) = try await Self.corpus.writePactWhenAsked(consumer: "DispatchApp")
        if ExampleCorpus.capturesConcurrencyOnly {
            // Every scenario escapes there (concurrency-only.json), and a failed scenario is left out.
            #expect(interactions == 0 && incomplete, "\(interactions) interactions")
        } else {
            #expect(interactions > 10 && !incomplete, "\(interactions) interactions")
        }
    }
}
