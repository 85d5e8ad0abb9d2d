import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Expectations cannot pass vacuously: for each kind (state, alerts, timeline, requests) and
/// each of `null`, `{}` and `[]`, the same scenario passes when the stack does the right thing
/// and fails when it does the wrong one.
@Suite struct ExpectationRuleTests {
    /// The result of running `steps` against the final `expect`.
    private func outcome(_ steps: String, _ expect: String) async throws -> ScenarioResult {
        try await Rules.run(steps: steps, expect: expect)
    }

    private func set(_ key: String, _ value: String) -> String {
        #"{ "do": "set", "with": { "key": "\#(key)", "value": \#(value) } }"#
    }

    private func expectRight(_ right: String, wrong: String, against expect: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let passing = try await outcome(right, expect)
        #expect(passing.status == .passed, "\(passing.failureText)", sourceLocation: sourceLocation)
        let failing = try await outcome(wrong, expect)
        #expect(failing.status == .failed, "the wrong stack passed \(expect)", sourceLocation: sourceLocation)
    }

    @Test func anExpectedNullFailsWhenTheValueIsPresent() async throws {
        // `"tokens": {"access": null}` is how scenarios say "wiped": a kept token fails it.
        try await expectRight(
            set("tokens", #"{ "refresh": "R1" }"#), wrong: set("tokens", #"{ "access": "A1", "refresh": "R1" }"#),
            against: #"{ "state": { "tokens": { "access": null } } }"#)
    }

    @Test func anExpectedNullIsMetByANullValue() async throws {
        let result = try await outcome(set("tokens", #"{ "access": null }"#), #"{ "state": { "tokens": { "access": null } } }"#)
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func anExpectedNullFailsForAnEmptyObjectOrArray() async throws {
        try await expectRight(set("cache", "null"), wrong: set("cache", "{}"), against: #"{ "state": { "cache": null } }"#)
        try await expectRight(set("cache", "null"), wrong: set("cache", "[]"), against: #"{ "state": { "cache": null } }"#)
    }

    @Test func anExpectedEmptyObjectFailsForAnObjectWithMembers() async throws {
        try await expectRight(
            set("profile", "{}"), wrong: set("profile", #"{ "name": "Ada" }"#), against: #"{ "state": { "profile": {} } }"#)
        // The actual side shows the members the empty object was not to have.
        let failing = try await outcome(set("profile", #"{ "name": "Ada" }"#), #"{ "state": { "profile": {} } }"#)
        let assertion = try #require(failing.failures.first)
        #expect(assertion.actual?.contains("\"name\": \"Ada\"") == true, "\(assertion.actual ?? "")")
    }

    @Test func anExpectedEmptyArrayFailsForAnArrayWithElements() async throws {
        try await expectRight(set("items", "[]"), wrong: set("items", "[1]"), against: #"{ "state": { "items": [] } }"#)
    }

    @Test func expectedAlertsFailOnAnExtraAlert() async throws {
        let one = #"{ "do": "alert", "with": { "title": "Account Blocked" } }"#
        try await expectRight(one, wrong: one + "," + one, against: #"{ "alerts": [ { "title": "Account Blocked" } ] }"#)
    }

    @Test func noAlertsFailsWhenAnAlertWasShown() async throws {
        try await expectRight(
            set("screen", #""home""#), wrong: #"{ "do": "alert", "with": { "title": "Oops" } }"#, against: #"{ "alerts": [] }"#)
    }

    @Test func anExpectedKeyFailsWhenTheValueIsAbsent() async throws {
        try await expectRight(set("screen", #""home""#), wrong: set("other", #""home""#), against: #"{ "state": { "screen": "home" } }"#)
    }

    @Test func aStringDoesNotMatchTheNumberItSpells() async throws {
        try await expectRight(set("status", #""200""#), wrong: set("status", "200"), against: #"{ "state": { "status": "200" } }"#)
    }

    @Test func aValueOffByOneCharacterFails() async throws {
        try await expectRight(set("token", #""A1""#), wrong: set("token", #""A2""#), against: #"{ "state": { "token": "A1" } }"#)
    }

    @Test func theTimelineIsComparedInOrderAndInFull() async throws {
        let loading = #"{ "do": "note", "with": { "event": "loading" } }"#
        let home = #"{ "do": "note", "with": { "event": "home" } }"#
        try await expectRight(loading + "," + home, wrong: home + "," + loading, against: #"{ "timeline": [ "loading", "home" ] }"#)
        try await expectRight(loading + "," + home, wrong: loading, against: #"{ "timeline": [ "loading", "home" ] }"#)
    }

    @Test func aTimelineIsNotMetByAlerts() async throws {
        // The timeline comes from the stack's timeline, not from what else it shows.
        let result = try await outcome(
            #"{ "do": "note", "with": { "event": "home" } }, { "do": "alert", "with": { "title": "home" } }"#,
            #"{ "timeline": [ "home" ], "alerts": [ { "title": "home" } ] }"#)
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func aMissingRequestFailsTheRequestCounts() async throws {
        let exchanges = #"{ "id": "feed", "request": { "path": "/feed" }, "response": { "status": 200 }, "optional": true }"#
        let send = #"{ "do": "send", "with": { "path": "/feed" } }"#
        let right = try await Rules.run(exchanges: exchanges, steps: send, expect: #"{ "requests": { "counts": { "feed": 1 } } }"#)
        #expect(right.status == .passed, "\(right.failureText)")
        let wrong = try await Rules.run(exchanges: exchanges, steps: set("a", "1"), expect: #"{ "requests": { "counts": { "feed": 1 } } }"#)
        #expect(wrong.status == .failed)
    }

    @Test func aCheckStepFailsTooNotOnlyTheFinalExpect() async throws {
        let result = try await Rules.run(steps: set("screen", #""login""#) + #", { "check": { "state": { "screen": "home" } } }"#)
        #expect(result.status == .failed)
        #expect(result.failures.first?.message.contains("state.screen") == true, "\(result.failureText)")
    }
}
