import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Every field of an exchange's `request` is a rule: the request the exchange names matches,
/// and a request that differs in that one field does not (it is answered 404, and the
/// scenario fails on the unmatched request and the unused exchange).
@Suite struct RequestMatchingRuleTests {
    /// Runs one `send` of `request` against one exchange matching `rule`.
    private func send(_ request: String, to rule: String) async throws -> ScenarioResult {
        try await Rules.run(
            exchanges: #"{ "id": "x", "request": \#(rule), "response": { "status": 200 } }"#,
            steps: #"{ "do": "send", "with": \#(request), "expect": { "value": { "status": 200 } } }"#)
    }

    /// The request matches the rule, and the request off in one field does not.
    private func expectRule(_ rule: String, matches good: String, notOff bad: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let matched = try await send(good, to: rule)
        #expect(matched.status == .passed, "\(matched.failureText)", sourceLocation: sourceLocation)
        let unmatched = try await send(bad, to: rule)
        #expect(unmatched.status == .failed, sourceLocation: sourceLocation)
        #expect(unmatched.failedLabels.contains("unmatched requests"), "\(unmatched.failedLabels)", sourceLocation: sourceLocation)
        #expect(unmatched.failedLabels.contains("unused exchanges"), "\(unmatched.failedLabels)", sourceLocation: sourceLocation)
    }

    @Test func aHeaderValueThatDiffersDoesNotMatch() async throws {
        try await expectRule(
            #"{ "path": "/feed", "headers": { "Authorization": "Bearer A1" } }"#,
            matches: #"{ "path": "/feed", "headers": { "Authorization": "Bearer A1" } }"#,
            notOff: #"{ "path": "/feed", "headers": { "Authorization": "Bearer A2" } }"#)
    }

    @Test func aMissingHeaderDoesNotMatch() async throws {
        try await expectRule(
            #"{ "path": "/feed", "headers": { "Authorization": "Bearer A1" } }"#,
            matches: #"{ "path": "/feed", "headers": { "Authorization": "Bearer A1" } }"#,
            notOff: #"{ "path": "/feed" }"#)
    }

    @Test func anotherMethodDoesNotMatch() async throws {
        try await expectRule(
            #"{ "method": "DELETE", "path": "/session" }"#,
            matches: #"{ "method": "DELETE", "path": "/session" }"#,
            notOff: #"{ "method": "POST", "path": "/session" }"#)
    }

    @Test func aQueryValueThatDiffersDoesNotMatch() async throws {
        try await expectRule(
            #"{ "path": "/feed", "query": { "page": "2" } }"#,
            matches: #"{ "path": "/feed", "query": { "page": "2" } }"#,
            notOff: #"{ "path": "/feed", "query": { "page": "3" } }"#)
    }

    @Test func aTextBodyMatchesOnlyWhole() async throws {
        try await expectRule(
            #"{ "path": "/ping", "text": "ping" }"#,
            matches: #"{ "path": "/ping", "text": "ping" }"#,
            notOff: #"{ "path": "/ping", "text": "ping-pong" }"#)
    }

    @Test func aJSONBodyRuleDoesNotMatchABodyThatIsNotJSON() async throws {
        try await expectRule(
            #"{ "path": "/login", "json": { "a": 1 } }"#,
            matches: #"{ "path": "/login", "json": { "a": 1, "b": 2 } }"#,
            notOff: #"{ "path": "/login", "text": "a=1" }"#)
    }

    @Test func aJSONBodyValueThatDiffersDoesNotMatch() async throws {
        try await expectRule(
            #"{ "path": "/login", "json": { "email": "a@b.c" } }"#,
            matches: #"{ "path": "/login", "json": { "email": "a@b.c" } }"#,
            notOff: #"{ "path": "/login", "json": { "email": "a@b.d" } }"#)
    }

    @Test func aPlaceholderNeedsANonEmptySegment() async throws {
        try await expectRule(
            #"{ "pathPattern": "/users/{id}/block" }"#,
            matches: #"{ "path": "/users/7/block" }"#,
            notOff: #"{ "path": "/users//block" }"#)
    }

    @Test func aPatternWithoutAStarDoesNotMatchLongerPaths() async throws {
        try await expectRule(
            #"{ "pathPattern": "/users/{id}" }"#,
            matches: #"{ "path": "/users/7" }"#,
            notOff: #"{ "path": "/users/7/block" }"#)
    }

    @Test func anExactPathDoesNotMatchALongerOne() async throws {
        try await expectRule(
            #"{ "path": "/feed" }"#,
            matches: #"{ "path": "/feed" }"#,
            notOff: #"{ "path": "/feed/2" }"#)
    }
}
