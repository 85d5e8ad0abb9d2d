import Foundation

/// How a run ends: the limits a step gives the app's blocking waits, a run abandoned from inside
/// a wait it never returns from, and the unwinding of what the run started.
extension ScenarioRun {
    /// Gives the app's blocking waits the limits of a step that starts at `start` (see
    /// ``WaitLimits``).
    func limitWaits(from start: VirtualClock.Instant) {
        guard let overrun = endFromAWait else { return }
        let (timeLimit, wakes) = (scenario.timeLimit, scenario.limits.wakes)
        scheduler.waitLimits = WaitLimits(
            until: start.advanced(by: timeLimit), timeLimit: timeLimit, wakes: wakes, wakesLeft: wakes, overrun: overrun)
    }

    /// The app's code holds the runner past a step's limits inside a wait it never returns from
    /// (a loop that sleeps in a block): the run ends from inside that wait, and its thread then
    /// parks for good. Nothing is cancelled or run any more: a cancelled answer would call the
    /// app back on another thread, into the next run.
    func abandon(_ message: String, ending turn: ScenarioTurn) -> RunOutcome {
        scheduler.waitLimits = nil
        // A wait that went past the step's limits holds the thread: the run is stuck in it.
        let result = outcome(
            fault: RunFault(message: message, location: currentStep?.location ?? scenario.location, subject: FailureSubject(.stuck)))
        turn.end()
        return result
    }

    /// Unwinds what the run started; returns why the run fails when the app would not stop.
    func tearDown() -> String? {
        var jobsWhileEnding: Int?
        func drain() {
            do {
                try scheduler.runUntilIdle(jobLimit: Self.jobsWhileEnding, externalWait: 5)
            } catch .busy(let jobs) {
                jobsWhileEnding = jobs
            } catch {}
        }
        // Unwind whatever still waits, so no task or continuation outlives the run.
        backend.cancelHeld()
        clock.cancelAll()
        drain()
        // Let the stack go while the scenario still owns its queues: what its deinit starts (an
        // Alamofire `Session` invalidates its URLSession, whose delegate queue then calls
        // `DispatchQueue.main.async`) runs here, not on libdispatch's threads into the next run.
        session = nil
        drain()
        clock.end()
        backend.runEnded()
        return jobsWhileEnding.map {
            "the app ran on after its last step: \($0) jobs ran while the run ended, and more were ready. Its tasks were cancelled and its waits woken; a loop that goes on when cancelled (a `try? await Task.sleep` in `while true`) spins for good on a device too: end it when `Task.isCancelled`"
        }
    }

    /// The most jobs the app may run while its run ends (cancelled tasks unwinding, deinits).
    static let jobsWhileEnding = 100_000
}
