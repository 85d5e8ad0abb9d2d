import Dispatch
import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// On the runner thread (Linux) Swift's clocks, `ContinuousClock` and `SuspendingClock`, are the
/// scenario's virtual clock: a deadline is exact however long the real machine took between
/// reading "now" and waiting for it, which is what a loaded CI machine or the thread sanitizer
/// does. So is Foundation's `Date()`: the scenario's start plus the virtual time elapsed.
/// Dispatch's clock stays real (a `DispatchTime` can reach libdispatch itself).
@Suite struct VirtualClockCaptureTests {
    /// Each action reads "now" from one clock, sets a deadline 1.5 s later, burns 0.6 s of real
    /// time (as a slow machine would), then waits for the deadline; it answers the virtual
    /// time it woke at. `elapsed` answers what each clock says 90 virtual seconds took, and
    /// whether Dispatch's clock moved less (it is real).
    struct ClockDriver: ScenarioDriver {
        var name: String { "Clocks" }
        var actions: [ActionSpec] {
            [
                ActionSpec("taskSleep", "Task.sleep(until:) a ContinuousClock deadline read before a slow stretch"),
                ActionSpec("suspendingSleep", "Task.sleep(until:) a SuspendingClock deadline read before a slow stretch"),
                ActionSpec("elapsed", "what the clocks say 90 s of virtual time took"),
                ActionSpec("dates", "Date() now, and after an hour's asyncAfter and a 90 s Task.sleep"),
                ActionSpec("sleepKeepsItsQueue", "a block sleeps, a main-queue block waits; their queues' next work waits too"),
                ActionSpec(
                    "threadSleep", "Thread.sleep for 2.5 s on a queue, with a main-queue block due at 1 s, then until an hour later"),
                ActionSpec("programSleeps", "usleep 0.5 s, sleep 2 s and nanosleep an hour on a queue, with a main-queue block due at 1 s"),
            ]
        }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession { ClockSession(context: context) }
    }

    final class ClockSession: ActionOnlySession, @unchecked Sendable {
        let context: DriverContext
        init(context: DriverContext) { self.context = context }

        /// Real time passes; the virtual clock does not (Dispatch's clock is the real one).
        private func burnRealTime() {
            let until = DispatchTime.now() + 0.6
            while DispatchTime.now() < until {}
        }

        private var wokeAt: JSONValue {
            let offset = context.clock.now.offset.components
            return .number(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
        }

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            switch action {
            case "taskSleep":
                let deadline = ContinuousClock.now + .milliseconds(1500)
                burnRealTime()
                try? await Task.sleep(until: deadline, clock: .continuous)
                return .value(["wokeAt": wokeAt])
            case "suspendingSleep":
                let deadline = SuspendingClock.now + .milliseconds(1500)
                burnRealTime()
                try? await Task.sleep(until: deadline, clock: .suspending)
                return .value(["wokeAt": wokeAt])
            case "elapsed":
                let (continuous, suspending, dispatch) = (ContinuousClock.now, SuspendingClock.now, DispatchTime.now())
                try? await context.clock.sleep(for: .seconds(90))
                let dispatchNanoseconds = DispatchTime.now().uptimeNanoseconds - dispatch.uptimeNanoseconds
                return .value([
                    "continuous": .string("\(continuous.duration(to: .now))"), "suspending": .string("\(suspending.duration(to: .now))"),
                    "dispatchIsReal": .bool(dispatchNanoseconds < 90_000_000_000),
                ])
            case "dates":
                let first = Date().timeIntervalSince1970
                let afterAnHour: Double = await withCheckedContinuation { done in
                    DispatchQueue.main.asyncAfter(deadline: .now() + 3600) { done.resume(returning: Date.now.timeIntervalSince1970) }
                }
                try? await Task.sleep(for: .seconds(90))
                return .value([
                    "first": .number(first), "afterAnHour": .number(afterAnHour), "after90More": .number(Date().timeIntervalSince1970),
                ])
            case "sleepKeepsItsQueue":
                let order = Noted()
                let serial = DispatchQueue(label: "clocks.serial")
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    serial.async {
                        order.note("sleeper", self.wokeAt)
                        Thread.sleep(forTimeInterval: 2)
                        order.note("sleeperWoke", self.wokeAt)
                    }
                    serial.async { order.note("nextOnItsQueue", self.wokeAt) }
                    DispatchQueue.main.async {
                        order.note("mainWaits", self.wokeAt)
                        _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 1)
                        order.note("mainWaited", self.wokeAt)
                    }
                    Task { @MainActor in order.note("mainActor", self.wokeAt) }
                    DispatchQueue.main.async { order.note("nextOnMain", self.wokeAt) }
                    DispatchQueue.global().async { order.note("elsewhere", self.wokeAt) }
                    serial.async { DispatchQueue.main.async { done.resume() } }
                }
                return .value(order.value)
            case "threadSleep":
                let first = Date()
                let marks = Noted()
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.main.asyncAfter(deadline: .now() + 1) { marks.note("mainQueueRanAt", self.wokeAt) }
                    DispatchQueue(label: "clocks.sleeper").async {
                        Thread.sleep(forTimeInterval: 2.5)
                        marks.note("sleptUntil", self.wokeAt)
                        marks.note("dateMoved", .number(Date().timeIntervalSince(first)))
                        Thread.sleep(until: first.addingTimeInterval(3600))
                        marks.note("sleptUntilAnHour", self.wokeAt)
                        done.resume()
                    }
                }
                return .value(marks.value)
            case "programSleeps":
                let marks = Noted()
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.main.asyncAfter(deadline: .now() + 1) { marks.note("mainQueueRanAt", self.wokeAt) }
                    DispatchQueue(label: "clocks.programSleeper").async {
                        usleep(500_000)
                        marks.note("afterUsleep", self.wokeAt)
                        marks.note("sleepLeft", .number(Double(sleep(2))))
                        marks.note("afterSleep", self.wokeAt)
                        var anHour = timespec(tv_sec: 3600, tv_nsec: 0)
                        marks.note("nanosleepResult", .number(Double(nanosleep(&anHour, nil))))
                        marks.note("afterNanosleep", self.wokeAt)
                        done.resume()
                    }
                }
                return .value(marks.value)
            default:
                return .error(["code": "unknownAction"])
            }
        }
    }

    private func run(_ action: String, expect: JSONValue, start: Date = Scenario.defaultClockStart) async -> ScenarioResult {
        await Build.runOne(action, expecting: expect, with: ClockDriver(), start: start)
    }

    #if os(Linux)
        @Test(arguments: ["taskSleep", "suspendingSleep"])
        func aDeadlineReadBeforeASlowStretchIsExact(action: String) async {
            #expect(DispatchCapture.hasVirtualClocks)
            let result = await run(action, expect: ["wokeAt": 1.5])
            #expect(result.status == .passed, "\(result.explanation)")
        }

        @Test func elapsedTimeIsVirtualTime() async {
            let result = await run("elapsed", expect: ["continuous": "90.0 seconds", "suspending": "90.0 seconds", "dispatchIsReal": true])
            #expect(result.status == .passed, "\(result.explanation)")
        }

        /// `Date()` on the runner is the scenario's start plus virtual time, before or after 1970.
        @Test(arguments: [1_893_456_000.25, -86_400.5])
        func aDateIsTheScenariosInstant(start: Double) async {
            #expect(DispatchCapture.hasVirtualDates)
            let result = await run(
                "dates", expect: ["first": .number(start), "afterAnHour": .number(start + 3600), "after90More": .number(start + 3690)],
                start: Date(timeIntervalSince1970: start))
            #expect(result.status == .passed, "\(result.explanation)")
        }

        /// `Thread.sleep` on the runner sleeps on virtual time, at once, and the scenario's other
        /// work runs meanwhile, as it would on other threads.
        @Test func aThreadSleepIsVirtual() async {
            #expect(DispatchCapture.hasVirtualWaits)
            let result = await run(
                "threadSleep", expect: ["mainQueueRanAt": 1, "sleptUntil": 2.5, "dateMoved": 2.5, "sleptUntilAnHour": 3600])
            #expect(result.status == .passed, "\(result.explanation)")
        }

        /// So do `usleep`, `sleep` and `nanosleep` called from the program's own code, where the
        /// stack is linked; a sanitizer's runtime defines them in the program, and they stay real.
        @Test func theProgramsOwnSleepsAreVirtual() async {
            #expect(DispatchCapture.hasVirtualProgramSleeps || DispatchCapture.programDefinesSleeps)
            guard DispatchCapture.hasVirtualProgramSleeps else { return }
            let result = await run(
                "programSleeps",
                expect: [
                    "mainQueueRanAt": 1, "afterUsleep": 0.5, "sleepLeft": 0, "afterSleep": 2.5, "nanosleepResult": 0,
                    "afterNanosleep": 3602.5,
                ])
            #expect(result.status == .passed, "\(result.explanation)")
        }

        /// While a block sleeps or waits, the scenario's other work runs, but not its own queue's
        /// next block, nor main-actor work while a main-queue block waits: queues stay serial.
        @Test func aSleepingBlockKeepsItsQueue() async {
            let result = await run(
                "sleepKeepsItsQueue",
                expect: [
                    "sleeper": 0, "mainWaits": 0, "elsewhere": 0, "mainWaited": 1, "mainActor": 1, "nextOnMain": 1, "sleeperWoke": 2,
                    "nextOnItsQueue": 2,
                ])
            #expect(result.status == .passed, "\(result.explanation)")
        }

        /// Off the runner thread, and on it once the scenario is over, the clocks are real.
        @Test func otherThreadsKeepTheRealClocks() async throws {
            _ = await run("elapsed", expect: ["continuous": "90.0 seconds", "suspending": "90.0 seconds", "dispatchIsReal": true])
            // A sleep moves a real clock; a virtual one would say no time passed.
            let onAThread: Duration = await withCheckedContinuation { done in
                Thread {
                    let start = ContinuousClock.now
                    Thread.sleep(forTimeInterval: 0.01)
                    done.resume(returning: start.duration(to: .now))
                }.start()
            }
            #expect(onAThread > .zero)
            // A scenario whose dates were in 1969: other threads, and this one, still read this century.
            _ = await run("dates", expect: [:], start: Date(timeIntervalSince1970: -86_400.5))
            let dateOnAThread: Double = await withCheckedContinuation { done in
                Thread { done.resume(returning: Date().timeIntervalSince1970) }.start()
            }
            #expect(dateOnAThread > 1_700_000_000)
            #expect(Date().timeIntervalSince1970 > 1_700_000_000)
        }
    #endif
}
