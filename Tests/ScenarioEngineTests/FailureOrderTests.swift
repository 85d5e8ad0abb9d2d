import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A failure reads cause first and points where it is written: an unmatched request before the
/// wrong outcomes it led to, copies that failed alike once, each end check at its own key.
@Suite struct FailureOrderTests {
    /// Five copies of `GET /x`, each answered 403 where the scenario expects 200.
    private func burst() async -> ScenarioResult {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("x", path: "/x", status: 403, times: 5)],
            steps: [Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 5, expect: .value(["status": 200])))])
        return await ScenarioRunner(driver: TestDriver()).run(scenario)
    }

    /// A parallel step whose 5 copies fail the same way reports one line "copies 1-5".
    @Test func copiesThatFailAlikeAreOneCheck() async {
        let result = await burst()
        #expect(result.failures.map(\.summary) == ["copies 1-5 of 5: status: expected 200, got 403"])
        let text = result.explanation
        #expect(text.components(separatedBy: "expected 200, got 403").count - 1 == 1, "\(text)")
        #expect(!text.contains("outcome of copy"), "no label twice: \(text)")
    }

    @Test func copiesThatFailDifferentlyKeepTheirOwnLines() {
        let one = AssertionResult(label: "outcome", passed: false, message: "status: expected 200, got 403")
        let other = AssertionResult(label: "outcome", passed: false, message: "status: expected 200, got 500")
        let ok = AssertionResult(label: "outcome", passed: true)
        let grouped = CopyGroups.grouped([one, one, other, one, ok])
        #expect(grouped.map(\.label) == ["copies 1-2, 4 of 5", "copy 3 of 5", "copy 5 of 5"])
    }

    /// A request nobody scripted is named before the wrong outcome it caused, in every report.
    @Test func anUnmatchedRequestLeadsBeforeTheOutcomeItBroke() async throws {
        let scenario = Build.scenario(
            steps: [Build.step(.perform(Build.call("get", ["path": "/nobody"]), parallel: 1, expect: .value(["status": 200])))])
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.failures.map(\.label) == ["unmatched requests", "outcome"])
        #expect(ResultText.headline(result).hasPrefix("unmatched requests: 1 request(s) matched no exchange"))
        let lines = ResultText.problemLines(result)
        #expect(lines.first?.hasPrefix("cause: unmatched requests: 1 request(s) matched no exchange") == true, "\(lines)")
        let cause = try #require(lines.firstIndex { $0.hasPrefix("cause: ") })
        let symptom = try #require(lines.firstIndex { $0.contains("outcome: status: expected 200, got 404") })
        #expect(cause < symptom)
        #expect(lines.count { $0.contains("unmatched requests") } == 1, "the cause is listed once: \(lines)")
        let annotations = GitHubAnnotations.lines(for: RunResult(scenarios: [result], wallTime: .zero))
        #expect(annotations.first?.contains("title=test%3A unmatched requests") == true, "\(annotations)")
    }

    /// Each failed end check points at the line of the key that failed, not at `"expect"`.
    @Test func endChecksPointAtTheKeyThatFailed() async throws {
        let text = """
            {
              "name": "Keys", "description": "Fails at three keys",
              "steps": [{ "do": "bump" }],
              "expect": {
                "state": {
                  "count": 1,
                  "polls": 5
                },
                "alerts": [
                  { "title": "Bumped", "message": "9" }
                ],
                "requests": { "total": 3 }
              }
            }
            """
        let scenario = try ScenarioLoader(actions: TestDriver().actions, givenKeys: []).load(
            data: Data(text.utf8), file: "keys.json", id: "keys"
        ).get()
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        let places = result.failures.map { "\($0.label) \($0.location?.line ?? 0):\($0.location?.column ?? 0)" }
        #expect(places == ["state 7:7", "alerts 10:28", "requests.total 12:19"])
    }

    @Test func aMessageThatNamesItsCheckIsNotPrefixedAgain() {
        #expect(
            AssertionResult(label: "state", passed: false, message: "state.auth: expected 1, got 2").summary
                == "state.auth: expected 1, got 2")
        #expect(
            AssertionResult(label: "outcome", passed: false, message: "code: expected 1, got 2").summary
                == "outcome: code: expected 1, got 2")
        #expect(AssertionResult(label: "stat", passed: false, message: "state.auth: x").summary == "stat: state.auth: x")
    }
}
