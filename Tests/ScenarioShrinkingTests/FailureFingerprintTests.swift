import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioShrinking

/// How a failure is named so that a shrink keeps it: the engine says what each failed check is
/// about, as data (``FailureSubject``), and a shrink keeps the invariants it broke, else what its
/// report leads with; a candidate that fails by anything else is another bug.
@Suite struct FailureFingerprintTests {
    /// Runs a rule scenario and returns how it failed, as the shrinker reads it.
    static func parts(exchanges: String = "", steps: String, expect: String? = nil, extra: String? = nil) async throws -> [FailurePart] {
        FailureFingerprint.parts(of: try await Rules.run(exchanges: exchanges, steps: steps, expect: expect, extra: extra))
    }

    @Test func invariantsLeadWhenAnyBroke() async throws {
        let parts = try await Self.parts(
            exchanges: #"{ "id": "token", "request": { "path": "/token" }, "response": { "status": 200 }, "times": 2 }"#,
            steps: #"""
                { "do": "send", "with": { "method": "POST", "path": "/token", "json": { "refresh_token": "r-1" } } },
                { "do": "send", "with": { "method": "POST", "path": "/token", "json": { "refresh_token": "r-1" } } },
                { "do": "send", "with": { "path": "/feed", "query": { "page": "2" } }, "expect": { "value": { "status": 200 } } }
                """#,
            extra: #"""
                "invariants": { "add": [{ "id": "spent-once", "description": "a refresh token once", "check": "neverSentTwice",
                  "requests": { "path": "/token" }, "value": { "json": "refresh_token" } }] }
                """#)
        #expect(parts.map(\.key) == ["unmatched:GET /feed", "outcome:send", "invariant:spent-once"])
        #expect(FailureFingerprint.primary(of: parts).map(\.description) == ["invariant spent-once"])
    }

    @Test func withoutInvariantsTheCauseLeadsThenAnErrorThenTheFirstSymptom() async throws {
        let unmatched = try await Self.parts(
            steps:
                #"{ "do": "send", "with": { "method": "POST", "path": "/auth/refresh" } }, { "do": "set", "with": { "key": "auth", "value": "b" } }"#,
            expect: #"{ "state": { "auth": "a" } }"#)
        #expect(unmatched.map(\.description) == ["unmatched request POST /auth/refresh", "state.auth: got \"b\""])
        #expect(FailureFingerprint.primary(of: unmatched).map(\.key) == ["unmatched:POST /auth/refresh"])

        // Two wait on an answer held until three do: nothing can end it, and the run says so at once.
        let stuck = try await Self.parts(
            exchanges:
                #"{ "id": "feed", "request": { "path": "/feed" }, "response": { "status": 200 }, "times": 3, "release": { "whenPending": 3 } }"#,
            steps: #"{ "group": [{ "do": "send", "with": { "path": "/feed" } }, { "do": "send", "with": { "path": "/feed" } }] }"#)
        #expect(stuck.map(\.key) == ["stuck"])

        let symptoms = try await Self.parts(
            exchanges: #"{ "id": "feed", "request": { "path": "/feed" }, "response": { "status": 200 }, "times": 10 }"#,
            steps: #"""
                { "do": "fail", "with": { "code": "expired" }, "parallel": 5, "expect": { "error": "denied" } },
                { "do": "set", "with": { "key": "screen", "value": "b" } },
                { "do": "alert", "with": { "title": "x" } }, { "do": "alert", "with": { "title": "x" } }
                """#,
            expect: #"{ "state": { "tokens": { "access": true }, "screen": "a" }, "alerts": [{ "title": "x" }] }"#)
        #expect(
            symptoms.map(\.description) == [
                "unused exchange feed", "outcome of fail: code got \"expired\"", "state.tokens: got absent",
                "state.screen: got \"b\"", "alerts: got 2 element(s)",
            ])
        #expect(FailureFingerprint.primary(of: symptoms).map(\.key) == ["outcome:fail"])
    }

    /// A shrink keeps a failure alone: the same key failing with another value is another failure
    /// (a shrink that ends with the app in another state has lost the bug), and so is the kept
    /// failure with anything beside it.
    @Test func aCandidateMustFailTheSameWayAndNoOther() throws {
        let original = [FailureSubject(.expectation, "state.auth", observed: "got \"unauthenticated\"")]
        let same = try SameFailure(choosing: nil, of: original)
        #expect(same.holds(for: original))
        #expect(!same.holds(for: [FailureSubject(.expectation, "state.auth", observed: "got \"loading\"")]))
        #expect(!same.holds(for: original + [FailureSubject(.unmatched, "GET /x")]), "no slippage")
        #expect(!same.holds(for: []), "a pass is never the same failure")
        // While what fails beside the kept part is taken out of the input, a candidate may shed
        // other parts, never gain one.
        let input = original + [FailureSubject(.unused, "feed"), FailureSubject(.outcome, "send", observed: "failed with x")]
        #expect(same.narrows(original + [FailureSubject(.unused, "feed")], within: input))
        #expect(!same.narrows(original + [FailureSubject(.stuck)], within: input))
        #expect(!same.narrows([FailureSubject(.unused, "feed")], within: input))
    }

    @Test func sameChoosesAPartOrEveryPart() throws {
        let parts = [FailureSubject(.expectation, "state.auth", observed: "got \"y\""), FailureSubject(.invariant, "a")]
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
