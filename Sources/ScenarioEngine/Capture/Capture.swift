import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where the runtime's hooks hand jobs: each goes to the running scenario that owns it (see
/// ``ScenarioHost/owner(of:)``), or back to the runtime's own executors untouched.
///
/// A job is a scenario's when it is enqueued from that scenario's runner thread (a `Task {}`,
/// an actor hop, a main-actor hop, a `Task.sleep`), or when it is a job that scenario owned
/// before and something outside resumes it (URLSession's threads delivering an answer). In a
/// process that runs nothing but scenarios (``ScenarioHost/Mode/wholeProcess``), every job
/// enqueued while a scenario runs is that scenario's, wherever it comes from.
enum Capture {
    private static var host: ScenarioHost { .shared }

    /// The scheduler the calling thread runs, if it is a runner thread.
    static var currentScheduler: ScenarioScheduler? { RunnerThread.current }

    private static func owner(of job: UnownedJob) -> (ScenarioScheduler, foreign: Bool, awaited: Bool)? { host.owner(of: job) }

    /// Main-actor code was found running off the main actor while a scenario ran.
    static func reportIsolationEscape() {
        // From another thread it is the running scenario's only in a process that runs nothing
        // else: inside `swift test` it may be any test's.
        let scheduler = RunnerThread.current ?? host.wholeProcessScenario
        scheduler?.noteEscape(
            "code isolated to the main actor ran on another thread (a completion handler or DispatchQueue calling MainActor.assumeIsolated?)"
        )
    }

    /// A job for the global concurrent executor; `false` leaves it to the runtime.
    static func takeGlobal(_ job: UnownedJob) -> Bool {
        guard let (scheduler, foreign, awaited) = owner(of: job) else { return false }
        scheduler.enqueue(job, lane: .generic, foreign: foreign, awaited: awaited)
        return true
    }

    /// A job for the main actor; `false` leaves it to the runtime.
    static func takeMain(_ job: UnownedJob) -> Bool {
        guard let (scheduler, foreign, awaited) = owner(of: job) else { return false }
        scheduler.enqueue(job, lane: .main, foreign: foreign, awaited: awaited)
        return true
    }

    /// A job to run after a delay (`Task.sleep`); `false` leaves it to the runtime.
    static func takeTimed(_ job: UnownedJob, after delay: Duration) -> Bool {
        guard let (scheduler, _, _) = owner(of: job) else { return false }
        scheduler.schedule(job, after: delay)
        return true
    }
}

extension Capture {
    /// A sleep an executor was asked for (`Task.sleep`, a clock's `sleep`); `false` leaves it
    /// to the caller. Durations of the runtime's clocks become virtual time; other clocks do not
    /// reach executors.
    static func takeSleep<C: Clock>(_ job: UnownedJob, for delay: C.Duration, on clock: C) -> Bool {
        takeTimed(job, after: max((delay as? Duration) ?? .zero, .zero))
    }

    /// A sleep until an instant on one of the runtime's clocks; `false` leaves it to the caller.
    static func takeSleep<C: Clock>(_ job: UnownedJob, until instant: C.Instant, on clock: C) -> Bool {
        let remaining = clock.now.duration(to: instant)
        guard let remaining = remaining as? Duration else { return takeSleep(job, for: remaining, on: clock) }
        return takeDeadline(job, remaining: remaining)
    }

    /// A sleep until a deadline that is `remaining` away now.
    static func takeDeadline(_ job: UnownedJob, remaining: Duration) -> Bool {
        guard let (scheduler, foreign, _) = owner(of: job) else { return false }
        // On a runner with virtual clocks the deadline's "now" was virtual: `remaining` is exact.
        let virtualNow = !foreign && host.capturesDispatch && DispatchCapture.hasVirtualClocks
        let slack = virtualNow ? .zero : deadlineSlack(scheduler, foreign: foreign)
        scheduler.schedule(job, after: roundest(from: remaining, to: remaining + slack))
        return true
    }

    /// How much longer than `remaining` a delay read from a deadline on the real clock may have
    /// been meant to be. The caller read the clock a moment ago: in the running job, or just
    /// before the hop that queued it (`Task.sleep` reads the clock, then hops to the clock's
    /// executor). The delay it meant then lies between `remaining` and `remaining` plus the time
    /// since the running job was queued, and the roundest delay in that span is taken (whole
    /// seconds before tenths, tenths before milliseconds): the one the code wrote, at ordinary
    /// speed. (A deadline read from a runner's virtual clock needs none: see ``takeDeadline(_:remaining:)``.)
    static func deadlineSlack(_ scheduler: ScenarioScheduler, foreign: Bool) -> Duration {
        if foreign { return .milliseconds(1) }
        return scheduler.timeSinceCurrentJobWasQueued + .microseconds(200)
    }

    /// The roundest duration in `lower...upper` (never negative).
    static func roundest(from lower: Duration, to upper: Duration) -> Duration {
        func nanoseconds(_ duration: Duration) -> Int64 {
            let whole = duration.nanoseconds
            // Too long for Int64: very far, with room left to add to.
            return whole == .max ? .max / 2 : max(0, whole)
        }
        let low = nanoseconds(lower)
        let high = max(low, nanoseconds(upper))
        let units: [Int64] = [3_600_000_000_000, 60_000_000_000, 1_000_000_000, 100_000_000, 10_000_000, 1_000_000, 1_000]
        for unit in units {
            let (count, rest) = low.quotientAndRemainder(dividingBy: unit)
            let (candidate, overflow) = (count + (rest > 0 ? 1 : 0)).multipliedReportingOverflow(by: unit)
            if !overflow, candidate <= high { return .nanoseconds(candidate) }
        }
        return .nanoseconds(low)
    }
}
