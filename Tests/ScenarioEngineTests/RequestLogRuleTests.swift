import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// `expect.requests`: `total`, `counts` and `log` each fail when the stack sends a request too
/// many, too few, or one that differs in a field the entry names.
@Suite struct RequestLogRuleTests {
    private let exchanges =
        #"{ "id": "any", "request": { "pathPattern": "/*" }, "response": { "status": 200 }, "times": "unlimited", "optional": true }"#

    private func send(_ request: String) -> String { #"{ "do": "send", "with": \#(request) }"# }

    /// Runs `requests` (the stack's requests) against `expect.requests`.
    private func check(_ requests: [String], _ expectation: String) async throws -> ScenarioResult {
        try await Rules.run(
            exchanges: exchanges, steps: requests.map(send).joined(separator: ","), expect: #"{ "requests": \#(expectation) }"#)
    }

    private func expectRight(
        _ right: [String], wrong: [String], against expectation: String, sourceLocation: SourceLocation = #_sourceLocation
    )
        async throws
    {
        let passing = try await check(right, expectation)
        #expect(passing.status == .passed, "\(passing.failureText)", sourceLocation: sourceLocation)
        let failing = try await check(wrong, expectation)
        #expect(failing.status == .failed, "the wrong requests passed \(expectation)", sourceLocation: sourceLocation)
    }

    private let a = #"{ "path": "/a" }"#
    private let b = #"{ "path": "/b" }"#

    @Test func totalFailsOnARequestTooMany() async throws {
        try await expectRight([a], wrong: [a, b], against: #"{ "total": 1 }"#)
        try await expectRight([a], wrong: [], against: #"{ "total": 1 }"#)
    }

    @Test func countsDoNotCountUnmatchedRequestsForAnExchange() async throws {
        let result = try await Rules.run(
            exchanges: #"{ "id": "x", "request": { "path": "/x" }, "response": { "status": 200 } }"#,
            steps: send(#"{ "path": "/x" }"#) + "," + send(#"{ "path": "/nobody" }"#),
            expect: #"{ "requests": { "counts": { "x": 1, "unmatched": 1 } } }"#, extra: #""relax": { "unmatchedRequests": true }"#)
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func theLogFailsOnARequestItDoesNotList() async throws {
        try await expectRight([a], wrong: [a, b], against: #"{ "log": [ { "path": "/a" } ] }"#)
    }

    @Test func theLogComparesThePath() async throws {
        try await expectRight([a], wrong: [b], against: #"{ "log": [ { "path": "/a" } ] }"#)
    }

    @Test func theLogComparesTheMethod() async throws {
        try await expectRight(
            [#"{ "method": "POST", "path": "/a" }"#], wrong: [a], against: #"{ "log": [ { "method": "POST" } ] }"#)
    }

    @Test func theLogComparesAHeaderValue() async throws {
        try await expectRight(
            [#"{ "path": "/a", "headers": { "Authorization": "Bearer A1" } }"#],
            wrong: [#"{ "path": "/a", "headers": { "Authorization": "Bearer A2" } }"#],
            against: #"{ "log": [ { "headers": { "Authorization": "Bearer A1" } } ] }"#)
    }

    @Test func theLogComparesTheBody() async throws {
        try await expectRight(
            [#"{ "path": "/a", "json": { "reason": "spam" } }"#], wrong: [#"{ "path": "/a", "json": { "reason": "spa" } }"#],
            against: #"{ "log": [ { "json": { "reason": "spam" } } ] }"#)
    }
}
