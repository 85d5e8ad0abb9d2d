import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A run with nothing scheduled that still waits is stuck, and known so at once, unless work may
/// still come back to it: a thread the app started is still running. The engine counts those
/// threads while they run, and only then waits for what they send back.
@Suite struct StuckAtOnceTests {
    /// The one step every scenario here has: `act`, which runs the test's closure.
    static let scenario = Build.scenario(steps: [Build.step(.perform(Build.call("act"), parallel: 1, expect: .ok))])

    /// A thread the app started does real work (a real sleep here) and then resumes what the
    /// action awaits, from a thread the scenario does not run: while that thread runs the run is
    /// not called stuck; it waits, and names what came back as the escape it is.
    @Test(.enabled(if: DispatchCapture.countsThreads)) func workAThreadTheAppStartedSendsBackIsNamedNotCalledStuck() async {
        let driver = OneActionDriver { _ in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread {
                    // Real work the run cannot see the end of; far less than the engine waits for it.
                    Thread.sleep(forTimeInterval: 0.2)
                    continuation.resume()
                }.start()
            }
            return "resumed"
        }
        let result = await ScenarioRunner(driver: driver, plan: RunPlan(route: .direct)).run(Self.scenario)
        #expect(result.errorSubject?.kind == .escaped, "\(result.explanation)")
    }

    /// The probe below, in a test process of its own: there, no other test's threads are counted.
    @Test(.enabled(if: TestProcess.isAvailable && DispatchCapture.countsThreads))
    func aThreadTheAppStartedIsCountedUntilItEndsAndThenNothingIsWaitedFor() throws {
        try TestProcess.expectPasses("StuckAtOnceTests/countingProbe", environment: ["SCENARIO_STUCK_PROBE": "counting"])
    }

    /// A thread the app starts is counted while it runs and no longer once it ended; then a run
    /// whose action waits on a thread the scenario did not start (this test's) is stuck at once:
    /// it does not wait for what that thread later sends.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SCENARIO_STUCK_PROBE"] == "counting"))
    func countingProbe() async throws {
        let before = DispatchCapture.threadsStartedAlive
        let release = DispatchSemaphore(value: 0)
        let seen = ResultBox<Int>()
        let starter = OneActionDriver { _ in
            Thread { release.wait() }.start()
            seen.set(DispatchCapture.threadsStartedAlive)
            return "started"
        }
        let started = await ScenarioRunner(driver: starter, plan: RunPlan(route: .direct)).run(Self.scenario)
        #expect(started.status == .passed, "\(started.explanation)")
        #expect(seen.value == before + 1, "counted while it runs")
        release.signal()
        // The count drops as the thread ends, which happens on its own time: poll, with a limit.
        let limit = Date().addingTimeInterval(10)
        while DispatchCapture.threadsStartedAlive > before, Date() < limit { try await Task.sleep(for: .milliseconds(10)) }
        #expect(DispatchCapture.threadsStartedAlive == before, "not counted once it ended")

        // Started by the test, before the run: it is no thread of the app's.
        let go = DispatchSemaphore(value: 0)
        let waiting = ResultBox<CheckedContinuation<Void, Never>>()
        Thread {
            go.wait()
            Thread.sleep(forTimeInterval: 0.2)
            waiting.value?.resume()
        }.start()
        let outsider = OneActionDriver { _ in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                waiting.set(continuation)
                go.signal()
            }
            return "resumed from outside"
        }
        let stuck = await ScenarioRunner(driver: outsider, plan: RunPlan(route: .direct)).run(Self.scenario)
        #expect(stuck.errorSubject == FailureSubject(.stuck), "\(stuck.explanation)")
    }
}

/// A driver with one action, `act`, that runs `body`.
private struct OneActionDriver: ScenarioDriver {
    let body: @Sendable (JSONValue) async -> JSONValue
    var name: String { "OneAction" }
    var actions: [ActionSpec] { [ActionSpec("act", "runs the test's closure")] }
    var givenKeys: [GivenSpec] { [] }
    func makeSession(_ context: DriverContext) async throws -> any DriverSession { OneActionSession(body: body) }
}

private struct OneActionSession: ActionOnlySession {
    let body: @Sendable (JSONValue) async -> JSONValue
    func perform(_ action: String, arguments: JSONValue) async -> ActionResult { .value(await body(arguments)) }
}
