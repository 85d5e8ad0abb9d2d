import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// `timeLimit`: an action that does not finish within it, in virtual time, ends the run with
/// an error that says so; one that finishes in time passes.
@Suite struct DeadlineRuleTests {
    private func sleep(_ seconds: Int, limit: String) async throws -> ScenarioResult {
        try await Rules.run(
            steps: #"{ "do": "sleep", "with": { "seconds": \#(seconds) }, "expect": { "ok": true } }"#, extra: #""timeLimit": "\#(limit)""#)
    }

    @Test func anActionWithinTheTimeLimitPasses() async throws {
        let result = try await sleep(30, limit: "1m")
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func anActionPastTheTimeLimitIsAnError() async throws {
        let result = try await sleep(120, limit: "1m")
        #expect(result.status == .error)
        #expect(
            result.errorMessage?.contains("did not finish within the time limit (60.000s of virtual time)") == true,
            "\(result.errorMessage ?? "")")
    }
}
