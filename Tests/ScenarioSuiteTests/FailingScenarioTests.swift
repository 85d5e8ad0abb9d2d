import Foundation
import ScenarioKit
import Testing

/// Scenarios that fail on purpose (Tests/Fixtures/failing-scenarios), with the exact words a
/// user reads, so failure output stays precise and readable.
@Suite struct FailingScenarioTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/failing-scenarios").path

    static func run(_ name: String) async throws -> ScenarioResult {
        let scenario = try ScenarioSuiteTests.load(folder + "/" + name + ".json", id: name)
        return await ScenarioRunner(driver: ScenarioSuiteTests.driver).run(scenario)
    }

    @Test func wrongStateShowsEachMismatchAndAFocusedDiff() async throws {
        let result = try await Self.run("wrong-state")
        #expect(result.status == .failed)
        let failure = try #require(result.failures.first)
        #expect(
            failure.message
                == #"state.auth: expected "authenticated", got "unauthenticated"; state.screen: expected "dashboard", got "login"; state.tokens.access: expected true, got absent"#
        )
        #expect(
            failure.diff == """
                  {
                -   "auth": "authenticated",
                -   "screen": "dashboard",
                +   "auth": "unauthenticated",
                +   "screen": "login",
                    "tokens": {
                -     "access": true
                +     "access": null
                    }
                  }
                """)
        #expect(failure.location?.line == 9)
    }

    @Test func anUnexpectedAlertFailsTheExactList() async throws {
        let result = try await Self.run("unexpected-alert")
        let failure = try #require(result.failures.first)
        #expect(failure.label == "alerts")
        #expect(failure.message == "alerts: expected 0 element(s), got 1 element(s)")
        #expect(failure.actual?.contains("Account Blocked") == true)
    }

    @Test func aWrongOutcomeNamesTheErrorCode() async throws {
        let result = try await Self.run("wrong-outcome")
        #expect(result.failures.map(\.message) == ["expected the action to succeed, but it failed with forbidden"])
        #expect(result.steps.first?.label == "do request")
    }

    @Test func unscriptedRequestsAndUnusedExchangesAreBothReported() async throws {
        let result = try await Self.run("unscripted-request")
        #expect(result.failures.map(\.label) == ["unmatched requests", "unused exchanges"])
        #expect(result.failures.first?.actual == "#1 GET /feed; nearest: 'health' (path: wants /health, got /feed)")
        #expect(result.failures.last?.actual == "'health' served 0 of 1")
        // The transcript stops at the first divergence: the unmatched request.
        #expect(
            result.transcript.last == "[0.000s] #1 ✗ no exchange matches; answered 404; nearest: 'health' (path: wants /health, got /feed)")
    }

    @Test func aWrongHeaderIsExplainedWithoutRevealingTokens() async throws {
        let result = try await Self.run("wrong-retry-token")
        let failure = try #require(result.failures.first)
        #expect(
            failure.message
                == "request #3 does not fit log entry 3: header Authorization is 'Bearer ‹redacted#3›', expected 'Bearer ‹redacted#1›'")
        let everything =
            [failure.message, failure.expected ?? "", failure.actual ?? "", failure.diff ?? ""].joined() + result.transcriptText
        for secret in ["acc-old-5", "acc-new-5", "ref-old-5", "ref-new-5"] {
            #expect(!everything.contains(secret), "\(secret) leaked")
        }
    }

    @Test func aScenarioThatCanNeverFinishSaysWhatItWaitsOn() async throws {
        let result = try await Self.run("stuck")
        #expect(result.status == .error)
        // Where only Swift concurrency is captured, the message adds what may have left the scenario.
        #expect(
            result.errorMessage?.hasPrefix(
                "stuck: 'request' can never finish; nothing is scheduled on the clock. Waiting on: 1 request(s) held by exchange 'feed' (released at step 'later')"
            ) == true)
        #expect(result.errorMessage?.contains("capture of Swift concurrency only") == (ScenarioHost.shared.level == .concurrencyOnly))
        #expect(result.errorLocation?.line == 10)
    }
}
