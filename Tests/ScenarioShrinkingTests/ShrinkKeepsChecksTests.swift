import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioShrinking

/// A shrunk scenario keeps every check its input had switched on: the shrinker never adds
/// `relax`, so a request it leaves unanswered or an answer it leaves unused fails the result as it
/// failed the input, and an input that fails beside the kept part is refused, not relaxed.
@Suite struct ShrinkKeepsChecksTests {
    /// `GET /boom` sent again after its 500 breaks it: the failure both scenarios here keep.
    static let invariants = """
        { "invariants": [
          { "id": "one-boom", "description": "GET /boom is sent at most once.", "check": "maxRepeats", "requests": { "path": "/boom" }, "max": 0 }
        ] }
        """
    static let boomTwice = #"{ "id": "boom", "request": { "method": "GET", "path": "/boom" }, "response": { "status": 500 }, "times": 2 }"#

    /// Both requests that break the invariant need the answer that serves them: without it they
    /// would match nothing, which only a relaxed check lets pass. The answer stays, and no check
    /// is switched off.
    @Test func theAnswersTheKeptFailureMeetsStayAndNoCheckIsSwitchedOff() async throws {
        let text = ShrinkPassTests.scenario(
            exchanges: [Self.boomTwice, ShrinkPassTests.exchange("a", "/a")],
            steps: [ShrinkPassTests.get("/a"), ShrinkPassTests.get("/boom"), ShrinkPassTests.get("/boom")])
        let fixture = try ShrinkFixture(text, driver: ShrinkTestDriver(), invariants: Self.invariants)
        defer { fixture.remove() }
        let report = try #require(await fixture.shrunk())
        #expect(report.kept.description == "invariant one-boom")
        let result = try fixture.result()
        #expect(result["relax"] == nil, "relax: \(result["relax"]?.compactText ?? "")")
        #expect(ShrinkPassTests.ids(result) == ["boom"], "\(result.prettyText)")
        #expect(ShrinkPassTests.steps(result).count == 2)
        let run = try await fixture.run()
        #expect(run.failureSubjects.map(\.key) == ["invariant:one-boom"], "\(run.failures.map(\.summary))")
    }

    /// A request no exchange matches fails the input beside the invariant kept. Before the
    /// search the shrinker takes out only the input's failing expectations and the answers its run
    /// left unused; a request nothing answers is the user's to script or fix. So the input is
    /// refused, saying what fails beside the kept part, and nothing is written.
    @Test func anInputThatFailsBesideTheKeptPartIsRefusedNotRelaxed() async throws {
        let text = ShrinkPassTests.scenario(
            exchanges: [Self.boomTwice],
            steps: [ShrinkPassTests.get("/boom"), ShrinkPassTests.get("/nowhere"), ShrinkPassTests.get("/boom")])
        let fixture = try ShrinkFixture(text, driver: ShrinkTestDriver(), invariants: Self.invariants)
        defer { fixture.remove() }
        let outcome = await fixture.shrink()
        guard case .refused(let message) = outcome else {
            Issue.record("refused, not \(outcome)")
            return
        }
        #expect(message.contains("fails by unmatched request GET /nowhere beside the failure kept (invariant one-boom)"), "\(message)")
        #expect(message.contains("--same all"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: fixture.output))
    }
}
