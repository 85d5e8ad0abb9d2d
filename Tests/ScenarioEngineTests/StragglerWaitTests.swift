import Foundation
import Testing

@testable import ScenarioEngine

/// Before a run is called stuck, the runner waits a moment for work coming back from other
/// threads. A request URLSession takes up late (its announcement already given up on) brings no
/// job, only news of work away: the wait must end on it, or the run is called stuck while its
/// answer is on the way (what a loaded machine showed, once in thousands of runs).
@Suite struct StragglerWaitTests {
    private func scheduler() -> ScenarioScheduler {
        ScenarioScheduler(clock: VirtualClock(start: Date(timeIntervalSince1970: 0)), order: JobOrder(.fifo, length: 0))
    }

    /// Brings `news` from another thread again and again until the wait ends (news from before
    /// the wait began does not end it); whether the wait saw any.
    private func wait(on scheduler: ScenarioScheduler, for news: @escaping @Sendable () -> Void) -> Bool {
        let waiting = NSCondition()
        nonisolated(unsafe) var over = false
        let thread = Thread {
            while waiting.withLock({ !over }) {
                news()
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        thread.start()
        let saw = scheduler.awaitStraggler(seconds: 20)
        waiting.withLock { over = true }
        return saw
    }

    @Test func aRequestTakenUpLateEndsTheWait() {
        let scheduler = scheduler()
        #expect(wait(on: scheduler) { _ = scheduler.outside.begin() })
    }

    @Test func declaredWorkEndsTheWait() {
        let scheduler = scheduler()
        #expect(wait(on: scheduler) { _ = scheduler.outside.declare("a callback API") })
    }

    @Test func withoutNewsTheWaitEndsEmptyHanded() {
        #expect(scheduler().awaitStraggler(seconds: 0.01) == false)
    }
}
