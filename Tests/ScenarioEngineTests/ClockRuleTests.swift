import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// The virtual clock: time only moves forward, due timers fire in deadline order, a sleep that
/// is already due does not wait, and dates start where `given.clock.start` says.
@Suite struct ClockRuleTests {
    private final class Fired: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Int] = []
        var order: [Int] { lock.withLock { stored } }
        func add(_ value: Int) { lock.withLock { stored.append(value) } }
    }

    @Test func timersDueTogetherFireInDeadlineOrder() {
        let clock = VirtualClock(start: Scenario.defaultClockStart)
        let fired = Fired()
        clock.schedule(at: .init(offset: .seconds(20)), label: "20") { fired.add(20) }
        clock.schedule(at: .init(offset: .seconds(5)), label: "5") { fired.add(5) }
        clock.schedule(at: .init(offset: .seconds(12)), label: "12") { fired.add(12) }
        #expect(clock.wakeDue(movingTo: .init(offset: .seconds(30))) == 3)
        #expect(fired.order == [5, 12, 20])
    }

    @Test func timeNeverGoesBack() {
        let clock = VirtualClock(start: Scenario.defaultClockStart)
        _ = clock.wakeDue(movingTo: .init(offset: .seconds(10)))
        _ = clock.wakeDue(movingTo: .init(offset: .seconds(5)))
        #expect(clock.now == .init(offset: .seconds(10)))
    }

    @Test func sleepingZeroSecondsDoesNotWaitForTheClock() async throws {
        // The background sleep returns while the app settles, before time moves at all.
        let result = try await Rules.run(
            steps: #"""
                { "start": "sleep", "with": { "seconds": 0 }, "as": "bg" },
                { "runUntilIdle": true },
                { "check": { "timeline": [ "woke at 0.000s" ] } },
                { "await": "bg" }
                """#)
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func theDateStartsAtGivenClockStart() async throws {
        let result = try await Rules.run(
            steps: #"{ "advance": "90s" }, { "do": "now", "expect": { "value": { "seconds": 1792560570 } } }"#,
            extra: #""given": { "clock": { "start": "2026-10-21T05:28:00Z" } }"#)
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func sleepersWakeAtTheirOwnDeadlines() async throws {
        let result = try await Rules.run(
            steps: #"""
                { "group": [
                    { "do": "sleep", "with": { "seconds": 20 }, "expect": { "value": { "at": "20.000s" } } },
                    { "do": "sleep", "with": { "seconds": 5 }, "expect": { "value": { "at": "5.000s" } } } ] }
                """#)
        #expect(result.status == .passed, "\(result.failureText)")
    }
}
