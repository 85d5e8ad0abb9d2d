import Foundation

/// Blocking waits on the runner thread: the app's code waits (a semaphore, a group, a work item,
/// `Thread.sleep`, a condition) on the thread the scenario's other work runs on, so the wait runs
/// that work itself, one step at a time, until what it waits for happens or its time is up.
extension ScenarioScheduler {
    /// Runs queued work on the runner, inside a blocking wait (`group.wait()`, `semaphore.wait()`),
    /// until `isOver` holds, moving virtual time up to `timeout` when nothing else can run (the
    /// answer that ends the wait may be one the scripted backend delays). Returns `false` when
    /// the wait timed out, or when nothing left can end it; the run is then told why.
    func runWhileWaiting(on what: String, timeout: Duration?, until isOver: () -> Bool) -> Bool {
        let limit = timeout.map { clock.now.advanced(by: $0) }
        while !isOver() {
            switch stepWhileBlocked(on: what, until: limit) {
            case .progressed: continue
            case .timedOut: return isOver()
            case .stuck: return false
            }
        }
        return true
    }

    /// What one step inside a blocking wait did (the raw values are the C target's `SSDC_STEP_`s).
    enum BlockedStep: Int32 {
        /// Work ran, an answer came or time moved: what the wait waits for may have changed.
        case progressed = 0
        /// Virtual time reached the wait's limit.
        case timedOut = 1
        /// Nothing in the scenario can end the wait; the run was told.
        case stuck = 2
    }

    /// One step of the scenario while the runner is blocked in the app's code: the next work no
    /// waiting code holds, else an answer from outside, else virtual time moved to the next
    /// deadline (never past `limit`).
    func stepWhileBlocked(on what: String, until limit: VirtualClock.Instant?) -> BlockedStep {
        if runOne() { return .progressed }
        let wasAway = awaitOutsideWork()
        if outside.settleDeliveries() || wasAway { return .progressed }
        if let next = clock.nextDeadline, limit.map({ next <= $0 }) ?? true {
            spendWaitLimits(movingTo: next, waitingOn: what)
            _ = clock.wakeDue(movingTo: next)
            return .progressed
        }
        if let limit {
            spendWaitLimits(movingTo: limit, waitingOn: what)
            _ = clock.wakeDue(movingTo: limit)
            return .timedOut
        }
        noteEscape("the app blocked a thread on \(what) that nothing in the scenario will signal")
        return .stuck
    }

    /// Counts a move of virtual time inside a wait against the step's limits, and ends the run
    /// when it goes past them: the waiting code is still on the runner's stack (a loop that sleeps
    /// in a block never returns), so only the run's end can take the thread back.
    private func spendWaitLimits(movingTo target: VirtualClock.Instant, waitingOn what: String) {
        guard var limits = waitLimits else { return }
        limits.wakesLeft -= 1
        waitLimits = limits
        let past: (String, raise: String)
        if target > limits.until {
            past = ("past this step's time limit (\(VirtualClock.Instant.format(limits.timeLimit)) of virtual time)", ScenarioKey.timeLimit)
        } else if limits.wakesLeft < 0 {
            past = ("through \(limits.wakes) wakes of the clock in this step", "limits.wakes")
        } else {
            return
        }
        let waiter = currentQueue.map { "a block on \(DispatchWork.label(of: $0))" } ?? "code on the scenario's thread"
        limits.overrun(
            "stuck: \(waiter) waited on \(what) \(past.0) and has not returned. The app's queue blocks run on the scenario's thread, so a block that keeps waiting (a loop that sleeps) holds it for good: schedule each round with asyncAfter, a Timer or Task.sleep instead, or raise \(past.raise) if the wait is meant to be this long"
        )
    }
}

/// How far the app's blocking waits may move virtual time in one step: the step's `timeLimit`
/// and `limits.wakes`, as for the run's own waits. `overrun` ends the run from inside the wait
/// that went past them, with the message, and never returns.
struct WaitLimits {
    var until: VirtualClock.Instant
    var timeLimit: Duration
    var wakes: Int
    var wakesLeft: Int
    let overrun: (String) -> Never
}
