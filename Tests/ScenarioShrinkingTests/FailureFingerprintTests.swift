import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioShrinking

/// How a failure is named so that a shrink keeps it: by the invariants it broke, else by what
/// its report leads with; state, alerts and outcomes with what they saw.
@Suite struct FailureFingerprintTests {
    static let here = ScenarioLocation(file: "f.json", line: 1, column: 1, path: "$")

    static func result(_ checks: [(step: String, check: AssertionResult)], error: String? = nil) -> ScenarioResult {
        let steps = checks.enumerated().map { index, entry in
            StepResult(index: index + 1, label: entry.step, location: here, assertions: [entry.check])
        }
        return ScenarioResult(
            id: "f", name: "f", file: "f.json", status: error == nil ? (checks.isEmpty ? .passed : .failed) : .error, steps: steps,
            errorMessage: error)
    }

    static func failed(_ label: String, _ message: String = "", actual: String? = nil) -> AssertionResult {
        AssertionResult(label: label, passed: false, message: message, actual: actual)
    }

    @Test func invariantsLeadWhenAnyBroke() {
        let parts = FailureFingerprint.parts(
            of: Self.result([
                ("do request", Self.failed("outcome", "code: expected \"ok\", got \"forbidden\"")),
                (
                    "expect",
                    Self.failed("unmatched requests", "1 request(s) matched no exchange", actual: "#4 GET /feed?page=2; nearest: x")
                ),
                ("invariants", Self.failed("invariant one-refresh-at-a-time", "2 requests were away at once")),
                ("invariants", Self.failed("invariant refresh-token-spent-once", "…")),
            ]))
        #expect(
            parts.map(\.key) == [
                "unmatched:GET /feed", "outcome:request", "invariant:one-refresh-at-a-time", "invariant:refresh-token-spent-once",
            ])
        #expect(
            FailureFingerprint.primary(of: parts).map(\.description) == [
                "invariant one-refresh-at-a-time", "invariant refresh-token-spent-once",
            ])
    }

    @Test func withoutInvariantsTheCauseLeadsThenAnErrorThenTheFirstSymptom() {
        let unmatched = FailureFingerprint.parts(
            of: Self.result([
                ("expect", Self.failed("state", "state.auth: expected \"a\", got \"b\"")),
                ("expect", Self.failed("unmatched requests", "", actual: "#2 POST /auth/refresh")),
            ]))
        #expect(FailureFingerprint.primary(of: unmatched).map(\.key) == ["unmatched:POST /auth/refresh"])

        let stuck = FailureFingerprint.parts(of: Self.result([], error: "stuck: 'get' can never finish; nothing is scheduled on the clock"))
        #expect(stuck.map(\.key) == ["stuck"])
        let escaped = FailureFingerprint.parts(
            of: Self.result(
                [],
                error:
                    "failed under schedule 3 (seed 7), not under the first-in-first-out order; replay it with --replay-schedule 7:3: escaped: a block for q was enqueued"
            ))
        #expect(escaped.map(\.key) == ["escaped"])
        // Counts in a message change as a scenario shrinks: they are left out of its name.
        let busy = FailureFingerprint.parts(of: Self.result([], error: "the app never became idle (1000000 jobs without a pause): a loop?"))
        #expect(busy.map(\.key) == ["error:the app never became idle"])

        let symptoms = FailureFingerprint.parts(
            of: Self.result([
                ("do request ×5", Self.failed("copies 1-5 of 5", "code: expected \"forbidden\", got \"notFound\"")),
                ("expect", Self.failed("state", "state.tokens.access: expected true, got absent; state.screen: expected \"a\", got \"b\"")),
                ("expect", Self.failed("alerts", "alerts: expected 1 element(s), got 2 element(s)")),
                ("expect", Self.failed("unused exchanges", "", actual: "'feed' served 0 of 10\n'me' served 1 of 2")),
            ]))
        #expect(
            symptoms.map(\.description) == [
                "unused exchange feed", "unused exchange me", "outcome of request: code got \"notFound\"",
                "state.tokens.access: got absent", "state.screen: got \"b\"", "alerts: got 2 element(s)",
            ])
        #expect(FailureFingerprint.primary(of: symptoms).map(\.key) == ["outcome:request"])
    }

    /// The same key failing with another value is another failure: a shrink that ends with the
    /// app in another state than the bug left it in has lost the bug.
    @Test func theSameKeyWithAnotherValueIsAnotherFailure() throws {
        let original = FailureFingerprint.parts(
            of: Self.result([("expect", Self.failed("state", "state.auth: expected \"x\", got \"unauthenticated\""))]))
        let same = try SameFailure(choosing: nil, of: original)
        let slipped = FailureFingerprint.parts(
            of: Self.result([("expect", Self.failed("state", "state.auth: expected \"x\", got \"loading\""))]))
        #expect(!same.holds(for: slipped))
        let more = FailureFingerprint.parts(
            of: Self.result([
                ("expect", Self.failed("unmatched requests", "", actual: "#1 GET /x")),
                ("expect", Self.failed("state", "state.auth: expected \"x\", got \"unauthenticated\"")),
            ]))
        #expect(same.holds(for: more), "what else fails may change")
        #expect(!same.holds(for: []), "a pass is never the same failure")
    }

    @Test func sameChoosesAPartOrEveryPart() throws {
        let parts = FailureFingerprint.parts(
            of: Self.result([
                ("expect", Self.failed("state", "state.auth: expected \"x\", got \"y\"")),
                ("invariants", Self.failed("invariant a", "")),
            ]))
        #expect(try SameFailure(choosing: "state.auth", of: parts).parts.map(\.description) == ["state.auth: got \"y\""])
        #expect(try SameFailure(choosing: "invariant:a", of: parts).parts.map(\.key) == ["invariant:a"])
        #expect(try SameFailure(choosing: "invariant a", of: parts).parts.map(\.key) == ["invariant:a"])
        #expect(try SameFailure(choosing: "all", of: parts).parts.count == 2)
        #expect(throws: SameFailure.Unknown.self) { try SameFailure(choosing: "invariant:b", of: parts) }
    }
}

/// The pieces of the shrinker below its passes: delta debugging, and edits of a scenario's
/// document that keep its references whole.
@Suite struct ShrinkPieceTests {
    @Test func deltaDebuggingFindsTheTwoItemsThatMatter() async {
        var tried = 0
        let kept = await DeltaDebugging.minimize(Array(0..<32)) { candidates in
            tried += candidates.count
            return candidates.firstIndex { $0.contains(3) && $0.contains(27) }
        }
        #expect(kept == [3, 27])
        #expect(tried < 100, "\(tried) candidates")
        let none = await DeltaDebugging.minimize(Array(0..<8)) { candidates in candidates.firstIndex { $0.isEmpty } }
        #expect(none.isEmpty)
    }

    static func document(_ text: String) throws -> ScenarioDocument { try #require(ScenarioDocument(text: text)) }

    @Test func aStartGoesWithItsAwait() throws {
        let document = try Self.document(
            #"{ "steps": [{ "start": "a", "as": "h" }, { "do": "b" }, { "await": "h" }, { "start": "a", "as": "h" }, { "await": "h" }] }"#)
        #expect(document.stepUnits() == [[0, 2], [1], [3, 4]])
    }

    @Test func whatAnEditLeavesDanglingGoes() throws {
        let document = try Self.document(
            """
            { "exchanges": [
                { "id": "a", "request": {}, "response": { "status": 200 } },
                { "id": "b", "request": {}, "response": { "status": 200 }, "after": ["a"], "release": { "atStep": "go" } },
                { "request": {}, "response": { "status": 200 }, "after": "a" } ],
              "steps": [{ "name": "go", "do": "x" }, { "check": { "requests": { "counts": { "a": 1 } } } }, { "do": "y" }],
              "expect": { "requests": { "counts": { "a": 1, "b": 1 }, "log": [{ "exchange": "a" }] } } }
            """
        ).withExchangeIDs()
        #expect(document.exchangeIDs == ["a", "b", "exchange-3"])
        let cut = document.removingExchanges(["a"]).removing([[.key("steps"), .index(0)]])
        #expect(cut.exchangeIDs == ["b", "exchange-3"])
        #expect(cut.exchanges.allSatisfy { $0["after"] == nil })
        #expect(cut.exchanges[0]["release"] == nil, "the step it waited for is gone")
        #expect(cut.steps.count == 1, "the check counted only what went")
        #expect(cut.stepOrigins == [3])
        #expect(cut.root["expect"] == JSONValue.object(["requests": ["counts": ["b": 1]]]))
    }

    @Test func removingStepsTakesTheirUsesOfTheExchanges() throws {
        let document = try Self.document(
            #"{ "exchanges": [{ "id": "a", "request": {}, "response": { "status": 200 }, "times": 3 }, { "id": "b", "request": {}, "response": { "status": 200 } }], "steps": [{ "do": "x" }, { "do": "y" }, { "do": "z" }] }"#
        )
        let uses: ExchangeUse.PerStep = [0: ["a": 2, "b": 1], 2: ["a": 1]]
        let cut = document.removingSteps([0], uses: uses)
        #expect(cut.exchangeIDs == ["a"])
        #expect(cut.exchanges[0]["times"] == nil, "one use of three is left")
        #expect(cut.stepOrigins == [2, 3])
    }
}
