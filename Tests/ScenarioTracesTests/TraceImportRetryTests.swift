import Foundation
import ScenarioEngine
import ScenarioTraces
import Testing

/// A stack that retries a 429 or 503 by itself (``TraceImportSpec/StackRetry``): the same request
/// again by the time the wait is over is the stack's, inside the step (also when it came too
/// early: that is the bug a capture brings); a repeat well after, or after a wait the stack does
/// not sit out, is the user's second step.
@Suite struct TraceImportRetryTests {
    static let retrying = TraceImportSpec(requestAction: "call", stackRetry: .init())
    static let origin = Date(timeIntervalSince1970: 1_767_225_600)

    static func entry(_ at: Double, status: Int, retryAfter: String? = nil) -> HARLog.Entry {
        HARLog.Entry(
            started: origin.addingTimeInterval(at), time: 10, request: HARLog.Request(method: "GET", url: "https://a/feed"),
            response: HARLog.Response(
                status: status, headers: retryAfter.map { [HARLog.Field("Retry-After", $0)] } ?? [], body: Data(#"{"s":\#(status)}"#.utf8)))
    }

    /// The steps that call the request action.
    static func calls(_ entries: [HARLog.Entry], spec: TraceImportSpec = retrying) throws -> [JSONValue] {
        let scenario = try TraceImporter(spec: spec).makeScenario(from: HARLog(entries: entries), file: "t.har").scenario
        return scenario["steps"]?.arrayValue?.filter { $0["do"] != nil } ?? []
    }

    @Test func aRepeatWhenRetryAfterEndsIsTheStacks() throws {
        // Answered at 0.010 s, asked to wait 3 s: sent again at 3.010 s.
        let steps = try Self.calls([Self.entry(0, status: 429, retryAfter: "3"), Self.entry(3.010, status: 200)])
        #expect(steps == [["do": "call", "with": ["path": "/feed"], "expect": ["ok": true]]])
    }

    @Test func anHTTPDateRetryAfterAndABackoffWithoutOneAreTheStacksToo() throws {
        let date = "Thu, 01 Jan 2026 00:00:03 GMT"  // 3 s after the capture began
        #expect(try Self.calls([Self.entry(0, status: 429, retryAfter: date), Self.entry(3.010, status: 200)]).count == 1)
        // 503 without Retry-After: the stack's own backoff, 1 s then 2 s.
        let backoff = [Self.entry(0, status: 503), Self.entry(1.010, status: 503), Self.entry(3.020, status: 200)]
        #expect(try Self.calls(backoff).count == 1)
    }

    /// A stack that does not sit the wait out retries after its own backoff: still the stack's,
    /// so a fixed stack that waits meets the same answers in the same order.
    @Test func aRetryBeforeTheWaitEndsIsTheStacksToo() throws {
        let early = [
            Self.entry(0, status: 503, retryAfter: "6"), Self.entry(1.010, status: 503, retryAfter: "5"),
            Self.entry(3.020, status: 201),
        ]
        #expect(try Self.calls(early).count == 1)
    }

    @Test func theUserSendingAgainLaterIsTwoSteps() throws {
        // The wait was 3 s; the user tapped again after 10.
        #expect(try Self.calls([Self.entry(0, status: 429, retryAfter: "3"), Self.entry(10.010, status: 200)]).count == 2)
        // An hour is beyond what the stack sits out: it told the user, who came back an hour later to the millisecond.
        #expect(try Self.calls([Self.entry(0, status: 429, retryAfter: "3600"), Self.entry(3600.010, status: 200)]).count == 2)
        // A status the stack does not retry.
        #expect(try Self.calls([Self.entry(0, status: 500, retryAfter: "3"), Self.entry(3.010, status: 200)]).count == 2)
    }

    @Test func aStackThatDoesNotRetryKeepsEveryRepeatAsAStep() throws {
        let plain = TraceImportSpec(requestAction: "call")
        #expect(try Self.calls([Self.entry(0, status: 429, retryAfter: "3"), Self.entry(3.010, status: 200)], spec: plain).count == 2)
    }
}
