import CRuntimeHooks
import Foundation

/// Blocking calls the app makes on the runner thread (Linux): Dispatch's waits, sleeps and
/// condition waits. Each becomes a wait the scheduler serves by running the scenario's other
/// work (see ``ScenarioScheduler/runWhileWaiting(on:timeout:until:)``).
extension DispatchCapture {
    /// A sleep on the runner (`Thread.sleep`, `usleep`, `sleep`, `nanosleep`): a wait nothing ends
    /// but time, so the scenario's other work runs meanwhile (as other threads would) and the sleep
    /// ends at its virtual deadline.
    static func sleepOnVirtualTime(_ nanoseconds: Int64) -> Bool {
        guard let scheduler = Capture.currentScheduler else { return false }
        _ = scheduler.runWhileWaiting(on: "a sleep (Thread.sleep, usleep, sleep, nanosleep)", timeout: waitLength(nanoseconds)) { false }
        return true
    }

    /// A condition wait on the runner (`NSCondition`, `Operation.waitUntilFinished()`, a
    /// `NotificationCenter` post to an observer on another queue): one step of the scenario, after
    /// which the wait returns and the app checks what it waits for again.
    static func stepWhileBlocked(limit: Int64) -> Int32 {
        guard let scheduler = Capture.currentScheduler else { return ScenarioScheduler.BlockedStep.stuck.rawValue }
        let until = limit < 0 ? nil : scheduler.clock.now.advanced(by: waitLength(limit))
        let what = "a condition (NSCondition.wait, Operation.waitUntilFinished, a NotificationCenter post to an observer on another queue)"
        return scheduler.stepWhileBlocked(on: what, until: until).rawValue
    }

    /// How long a wait with `nanoseconds` left lasts on virtual time: what the code wrote, the
    /// roundest length within the millisecond above (the real time spent reaching the wait).
    private static func waitLength(_ nanoseconds: Int64) -> Duration {
        Capture.roundest(from: .nanoseconds(nanoseconds), to: .nanoseconds(nanoseconds) + .milliseconds(1))
    }

    /// What a blocking wait waits on, as the C target numbers it.
    enum WaitKind: Int32 {
        case group = 0
        case semaphore = 1
        case workItem = 2
    }

    static func takeWait(_ object: Object?, timeout: UInt64, on kind: WaitKind, result: UnsafeMutablePointer<Int>?) -> Bool {
        guard let object, let scheduler = Capture.currentScheduler else { return false }
        let remaining = ssdc_nanoseconds_until(timeout)
        let limit = remaining == Int64.max ? nil : waitLength(remaining)
        let what =
            switch kind {
            case .group: "a DispatchGroup"
            case .semaphore: "a DispatchSemaphore"
            case .workItem: "a DispatchWorkItem"
            }
        let value = scheduler.runWhileWaiting(on: what, timeout: limit) {
            switch kind {
            case .group: ssdc_real_group_wait(object, 0) == 0
            case .semaphore: ssdc_real_semaphore_wait(object, 0) == 0
            case .workItem: scheduler.workItemHasRun(object)
            }
        }
        result?.pointee = value ? 0 : 1
        return true
    }
}
