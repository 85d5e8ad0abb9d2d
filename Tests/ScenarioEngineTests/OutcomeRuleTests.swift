import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A step's `expect` (`ok`, `value`, `error`), `parallel` and `group`: each passes when the
/// stack does the right thing and fails when it does not.
@Suite struct OutcomeRuleTests {
    @Test func okFailsWhenTheActionFailed() async throws {
        let right = try await Rules.run(steps: #"{ "do": "note", "with": { "event": "e" }, "expect": { "ok": true } }"#)
        #expect(right.status == .passed, "\(right.failureText)")
        let wrong = try await Rules.run(steps: #"{ "do": "fail", "with": { "code": "forbidden" }, "expect": { "ok": true } }"#)
        #expect(wrong.status == .failed)
        #expect(wrong.failures.first?.message.contains("expected the action to succeed") == true, "\(wrong.failureText)")
    }

    @Test func anErrorCodeThatDiffersFails() async throws {
        let right = try await Rules.run(steps: #"{ "do": "fail", "with": { "code": "forbidden" }, "expect": { "error": "forbidden" } }"#)
        #expect(right.status == .passed, "\(right.failureText)")
        let wrong = try await Rules.run(steps: #"{ "do": "fail", "with": { "code": "forbidden" }, "expect": { "error": "rateLimited" } }"#)
        #expect(wrong.status == .failed)
        #expect(wrong.failureText.contains("rateLimited"), "\(wrong.failureText)")
    }

    /// An error nobody awaited would go unchecked; an action still running at the end is the
    /// scenario's business (an app that must not finish starting).
    @Test func aBackgroundActionThatFailedUnawaitedFailsTheRun() async throws {
        let failed = try await Rules.run(
            steps: #"{ "start": "fail", "with": { "code": "forbidden" }, "as": "bg" }, { "runUntilIdle": true }"#,
            expect: "{ \"alerts\": [] }")
        #expect(failed.status == .failed)
        #expect(failed.failures.map(\.label) == ["outcome of 'bg'"], "\(failed.failureText)")
        #expect(failed.failureText.contains("never awaited"), "\(failed.failureText)")
        let awaited = try await Rules.run(
            steps:
                #"{ "start": "fail", "with": { "code": "forbidden" }, "as": "bg" }, { "await": "bg", "expect": { "error": "forbidden" } }"#)
        #expect(awaited.status == .passed, "\(awaited.failureText)")
        let running = try await Rules.run(
            steps: #"{ "start": "sleep", "with": { "seconds": 60 }, "as": "bg" }, { "advance": "1s" }"#, expect: "{ \"alerts\": [] }")
        #expect(running.status == .passed, "\(running.failureText)")
    }

    @Test func anExpectedErrorFailsWhenTheActionSucceeded() async throws {
        let wrong = try await Rules.run(steps: #"{ "do": "note", "with": { "event": "e" }, "expect": { "error": "forbidden" } }"#)
        #expect(wrong.status == .failed)
    }

    @Test func parallelRunsThatManyCopies() async throws {
        let result = try await Rules.run(
            exchanges: #"{ "id": "x", "request": { "path": "/x" }, "response": { "status": 200 }, "times": 3 }"#,
            steps: #"{ "do": "send", "with": { "path": "/x" }, "parallel": 3, "expect": { "value": { "status": 200 } } }"#,
            expect: #"{ "requests": { "total": 3 } }"#)
        #expect(result.status == .passed, "\(result.failureText)")
        #expect(result.transcript.filter { $0.contains("→ GET /x") }.count == 3, "\(result.transcript)")
    }

    @Test func eachGroupEntryIsCheckedAgainstItsOwnExpectation() async throws {
        let steps = #"""
            { "group": [
                { "do": "note", "with": { "event": "e" }, "expect": { "ok": true } },
                { "do": "fail", "with": { "code": "nope" }, "expect": { "error": "nope" } } ] }
            """#
        let right = try await Rules.run(steps: steps)
        #expect(right.status == .passed, "\(right.failureText)")
        let wrong = try await Rules.run(steps: steps.replacingOccurrences(of: #"{ "error": "nope" }"#, with: #"{ "error": "other" }"#))
        #expect(wrong.status == .failed)
    }
}
