import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Loader rules, each stated by a document that breaks it: a misspelt or misplaced key, a value
/// out of range or a reference to nothing is an issue, never a silently different scenario.
@Suite struct LoaderRuleTests {
    private func issues(steps: String = #"{ "do": "note", "with": { "event": "e" } }"#, exchanges: String = "", expect: String? = nil)
        -> [String]
    {
        Rules.issues(Rules.document(exchanges: exchanges, steps: steps, expect: expect))
    }

    private func expectIssue(_ found: [String], containing text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(found.contains { $0.contains(text) }, "no issue says \(text): \(found)", sourceLocation: sourceLocation)
    }

    @Test func theValidBaseDocumentLoads() {
        #expect(issues().isEmpty)
    }

    @Test func aMisspeltParallelIsAnUnknownKey() {
        // Loaded as is, it would run one copy instead of ten.
        let found = issues(steps: #"{ "do": "note", "with": { "event": "e" }, "parralel": 10 }"#)
        expectIssue(found, containing: "unknown key 'parralel'")
    }

    @Test func aKeyOfAnotherStepFormIsRefused() {
        expectIssue(
            issues(steps: #"{ "advance": "1s", "with": { "event": "e" } }"#), containing: "'with' does not belong in a 'advance' step")
    }

    @Test func twoStepsWithOneNameAreRefused() {
        let step = #"{ "name": "twice", "advance": "1s" }"#
        expectIssue(issues(steps: step + "," + step), containing: "duplicate step name 'twice'")
    }

    @Test func parallelZeroIsRefused() {
        #expect(!issues(steps: #"{ "do": "note", "with": { "event": "e" }, "parallel": 0 }"#).isEmpty)
    }

    @Test func aStepWithTwoKindsIsRefused() {
        expectIssue(
            issues(steps: #"{ "do": "note", "with": { "event": "e" }, "advance": "1s" }"#), containing: "this one already has 'do'")
    }

    @Test func okFalseIsRefused() {
        expectIssue(
            issues(steps: #"{ "do": "note", "with": { "event": "e" }, "expect": { "ok": false } }"#), containing: "'ok' must be true")
    }

    @Test func aHandleCannotBeAwaitedTwice() {
        let steps = #"{ "start": "sleep", "with": { "seconds": 1 }, "as": "bg" }, { "await": "bg" }, { "await": "bg" }"#
        expectIssue(issues(steps: steps), containing: "handle 'bg' was already awaited")
    }

    /// Steps whose unscripted requests fail the run check something; no steps, or both checks
    /// relaxed, with nothing expected, check nothing.
    @Test func aScenarioThatComparesNothingIsRefused() {
        let nothing = "the scenario checks nothing"
        #expect(Rules.issues(#"{"name": "n", "description": "d", "steps": []}"#).first?.hasPrefix(nothing) == true)
        #expect(Rules.issues(#"{"name": "n", "description": "d", "steps": [{ "advance": "1s" }]}"#).isEmpty)
        let relaxed = #"{"name": "n", "description": "d", "steps": [{ "advance": "1s" }], "relax": {"unmatchedRequests": true}"#
        #expect(Rules.issues(relaxed + "}").first?.hasPrefix(nothing) == true)
        let optional = #", "exchanges": [{ "request": { "path": "/a" }, "response": { "status": 200 }, "optional": true }]"#
        #expect(Rules.issues(relaxed + optional + "}").first?.hasPrefix(nothing) == true)
        #expect(Rules.issues(relaxed + optional.replacingOccurrences(of: #", "optional": true"#, with: "") + "}").isEmpty)
    }

    @Test func anEmptyErrorCodeIsRefused() {
        expectIssue(
            issues(steps: #"{ "do": "fail", "with": { "code": "x" }, "expect": { "error": "" } }"#),
            containing: "'error' must be an error code")
    }

    @Test func timesZeroIsRefused() {
        let exchange = #"{ "id": "x", "request": { "path": "/x" }, "response": { "status": 200 }, "times": 0 }"#
        expectIssue(issues(exchanges: exchange), containing: "'times' must be an integer >= 1")
        // The bad count is the one issue: no second one about a release it would never reach.
        let held = exchange.replacingOccurrences(of: #""times": 0"#, with: #""times": 0, "release": { "whenPending": 2 }"#)
        #expect(issues(exchanges: held).count == 1)
    }

    @Test func afterNamingNoExchangeIsRefused() {
        let exchange = #"{ "id": "x", "request": { "path": "/x" }, "response": { "status": 200 }, "after": "nobody" }"#
        expectIssue(issues(exchanges: exchange), containing: "'after' names unknown exchange 'nobody'")
    }

    @Test func anExactPathWithAPlaceholderIsRefused() {
        let exchange = #"{ "id": "x", "request": { "path": "/users/{id}" }, "response": { "status": 200 } }"#
        expectIssue(issues(exchanges: exchange), containing: "use 'pathPattern'")
    }

    @Test func anEmptyStateExpectationIsRefused() {
        expectIssue(issues(expect: #"{ "state": {} }"#), containing: "'state': {} would only match an empty snapshot")
    }

    @Test func anEmptyExpectIsRefused() {
        expectIssue(issues(expect: "{}"), containing: "is empty and checks nothing")
    }

    @Test func durationUnitsGoLargestFirstAndOnce() {
        expectIssue(issues(steps: #"{ "advance": "30s1m" }"#), containing: "largest first")
        expectIssue(issues(steps: #"{ "advance": "1m1m" }"#), containing: "largest first")
    }

    @Test func aDurationKeepsItsFraction() throws {
        #expect(try DurationText.parse("1.5s") == .milliseconds(1500))
        #expect(try DurationText.parse("0.25m") == .seconds(15))
    }

    @Test func aDurationWithoutAUnitIsToldWhichToAdd() {
        expectIssue(issues(steps: #"{ "advance": "60" }"#), containing: #"has no unit; say which, such as "60ms" or "60s""#)
    }
}
