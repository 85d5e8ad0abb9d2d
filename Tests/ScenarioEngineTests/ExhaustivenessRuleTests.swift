import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Every request is scripted and every exchange is used as scripted, unless `relax` or
/// `optional` says otherwise.
@Suite struct ExhaustivenessRuleTests {
    private let send = #"{ "do": "send", "with": { "path": "/x" } }"#

    @Test func anExchangeScriptedForThreeRequestsServingOneIsUnused() async throws {
        let exchanges = #"{ "id": "x", "request": { "path": "/x" }, "response": { "status": 200 }, "times": 3 }"#
        let all = try await Rules.run(exchanges: exchanges, steps: [send, send, send].joined(separator: ","))
        #expect(all.status == .passed, "\(all.failureText)")
        let one = try await Rules.run(exchanges: exchanges, steps: send)
        #expect(one.status == .failed)
        #expect(one.failedLabels == ["unused exchanges"])
        #expect(one.failures.first?.actual?.contains("'x' served 1 of 3") == true, "\(one.failureText)")
    }

    @Test func anOptionalExchangeMayServeNothing() async throws {
        let result = try await Rules.run(
            exchanges: #"{ "id": "x", "request": { "path": "/x" }, "response": { "status": 200 }, "optional": true }"#,
            steps: #"{ "do": "note", "with": { "event": "e" } }"#)
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func oneUnmatchedRequestFailsTheScenario() async throws {
        let result = try await Rules.run(steps: #"{ "do": "send", "with": { "path": "/nobody" } }"#)
        #expect(result.status == .failed)
        #expect(result.failedLabels == ["unmatched requests"])
    }

    @Test func relaxUnusedExchangesLetsAnExchangeGoUnused() async throws {
        let exchanges = #"{ "id": "x", "request": { "path": "/x" }, "response": { "status": 200 } }"#
        let steps = #"{ "do": "note", "with": { "event": "e" } }"#
        let strict = try await Rules.run(exchanges: exchanges, steps: steps)
        #expect(strict.failedLabels == ["unused exchanges"])
        let relaxed = try await Rules.run(exchanges: exchanges, steps: steps, extra: #""relax": { "unusedExchanges": true }"#)
        #expect(relaxed.status == .passed, "\(relaxed.failureText)")
    }
}
