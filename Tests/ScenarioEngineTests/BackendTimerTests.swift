import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// The backend's timers on the virtual clock go with what they were for: an answer released
/// before its client's deadline, or a request its client gave up, leaves none behind for time
/// to move to for nothing.
@Suite struct BackendTimerTests {
    private let request = HTTPRequest(method: .get, path: "/a")

    @Test func aHeldAnswerReleasedInTimeTakesItsDeadlineAlong() {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 0))
        let backend = ScriptedBackend(exchanges: [Build.exchange("a", path: "/a", release: .atStep("go"))], clock: clock)
        backend.handle(request, timeout: { .seconds(10) }, respond: { _ in })
        #expect(clock.waitingCount == 1, "the client's deadline")
        backend.reachStep("go")
        #expect(clock.waitingCount == 0)
    }

    @Test func aRequestGivenUpTakesItsTimersAlong() {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 0))
        let backend = ScriptedBackend(
            exchanges: [
                Build.exchange("a", path: "/a", latency: .seconds(5)), Build.exchange("b", path: "/b", release: .atStep("go")),
            ], clock: clock)
        let late = backend.handle(request) { _ in }
        let held = backend.handle(HTTPRequest(method: .get, path: "/b"), timeout: { .seconds(10) }, respond: { _ in })
        #expect(clock.waitingCount == 2)
        backend.cancelledByClient(late)
        backend.cancelledByClient(held)
        #expect(clock.waitingCount == 0)
        backend.cancelHeld()
        #expect(!backend.transcriptLines.contains { $0.contains("unanswered") }, "\(backend.transcriptLines)")
    }
}
