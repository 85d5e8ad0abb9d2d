import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Decides, for every job the runtime hands to the hooks, which running scenario owns it.
///
/// A job is a scenario's when it is enqueued from that scenario's runner thread (a `Task {}`,
/// an actor hop, a main-actor hop, a `Task.sleep`), or when it is a job that scenario owned
/// before and something outside resumes it (URLSession's threads delivering an answer). In a
/// process that runs nothing but scenarios (``ScenarioProcess/claimWholeProcess()``), every job
/// enqueued while a scenario runs is that scenario's, wherever it comes from. Anything else
/// goes to the runtime's own executors untouched, so tests running beside a scenario are not
/// captured.
enum Capture {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: ScenarioScheduler?
    /// Jobs a scenario owned, by address, so a resume from another thread finds its way back.
    nonisolated(unsafe) private static var known: [UnsafeRawPointer: ScenarioScheduler] = [:]
    nonisolated(unsafe) private static var wholeProcess = false

    /// Scenarios run one at a time in a process: what the hooks capture is process-wide.
    static let turn = ProcessTurn()

    static func claimWholeProcess() { lock.withLock { wholeProcess = true } }

    static var ownsWholeProcess: Bool { lock.withLock { wholeProcess } }

    /// The running scenario's thread is kept by the stack for good: the process goes on with
    /// other work (reports, worker processes, other tests), so nothing from elsewhere is counted
    /// as that scenario's any more (no job, no connection refused in its name), and the addresses
    /// of jobs it owned, which new jobs may reuse, are forgotten.
    static func abandonRunning() {
        lock.withLock {
            wholeProcess = false
            if let running { known = known.filter { $0.value !== running } }
            running = nil
        }
    }

    /// Which scenario runs (by its scheduler and file) and how many of its jobs and blocks ran:
    /// it changes while scenarios progress.
    static var progress: Progress {
        guard let scheduler = lock.withLock({ running }) else { return Progress(scheduler: nil, file: nil, workRun: 0) }
        return Progress(scheduler: ObjectIdentifier(scheduler), file: scheduler.scenarioFile, workRun: scheduler.workRun)
    }

    struct Progress: Equatable {
        var scheduler: ObjectIdentifier?
        var file: String?
        var workRun: Int
    }

    /// The running scenario, in a process that runs nothing but scenarios.
    static var wholeProcessScenario: ScenarioScheduler? { lock.withLock { wholeProcess ? running : nil } }

    /// The running scenario, if any, in any process (scenarios take turns, so there is one).
    static var runningScenario: ScenarioScheduler? { lock.withLock { running } }

    /// Makes `scheduler` the running scenario, owned by the calling thread.
    static func begin(_ scheduler: ScenarioScheduler) {
        DispatchCapture.install()
        lock.withLock { running = scheduler }
        RunnerThread.current = scheduler
        DispatchCapture.useVirtualClocks(startingAt: scheduler.clock.start)
    }

    /// Forgets the scenario: no job is captured for it any more.
    static func end(_ scheduler: ScenarioScheduler) {
        DispatchCapture.useRealClocks()
        DispatchCapture.forget(scheduler)
        RunnerThread.current = nil
        lock.withLock {
            if running === scheduler { running = nil }
            known = known.filter { $0.value !== scheduler }
        }
    }

    /// The scheduler the calling thread runs, if it is a runner thread.
    static var currentScheduler: ScenarioScheduler? { RunnerThread.current }

    /// The owner of a job, and whether it came from outside the owner's thread.
    private static func owner(of job: UnownedJob) -> (ScenarioScheduler, foreign: Bool)? {
        let address = unsafeBitCast(job, to: UnsafeRawPointer.self)
        if let mine = RunnerThread.current {
            lock.withLock { known[address] = mine }
            return (mine, false)
        }
        return lock.withLock {
            if let owner = known[address] { return (owner, true) }
            if wholeProcess, let running {
                known[address] = running
                return (running, true)
            }
            return nil
        }
    }

    /// The task running on a runner thread is about to wait on another thread (a URLSession
    /// request, declared outside work): remembered, so the resume from there is the scenario's
    /// even when none of the task's jobs passed the hooks before (a task started inside an actor
    /// is queued on it directly, and runs on from there without being enqueued again).
    static func rememberCurrentTask() {
        guard let mine = RunnerThread.current, let task = RuntimeHooks.currentTask else { return }
        lock.withLock { known[task] = mine }
    }

    /// Main-actor code was found running off the main actor while a scenario ran.
    static func reportIsolationEscape() {
        // From another thread it is the running scenario's only in a process that runs nothing
        // else: inside `swift test` it may be any test's.
        let scheduler = RunnerThread.current ?? wholeProcessScenario
        scheduler?.noteEscape(
            "code isolated to the main actor ran on another thread (a completion handler or DispatchQueue calling MainActor.assumeIsolated?)"
        )
    }

    /// A job for the global concurrent executor; `false` leaves it to the runtime.
    static func takeGlobal(_ job: UnownedJob) -> Bool {
        guard let (scheduler, foreign) = owner(of: job) else { return false }
        scheduler.enqueue(job, lane: .generic, foreign: foreign)
        return true
    }

    /// A job for the main actor; `false` leaves it to the runtime.
    static func takeMain(_ job: UnownedJob) -> Bool {
        guard let (scheduler, foreign) = owner(of: job) else { return false }
        scheduler.enqueue(job, lane: .main, foreign: foreign)
        return true
    }

    /// A job to run after a delay (`Task.sleep`); `false` leaves it to the runtime.
    static func takeTimed(_ job: UnownedJob, after delay: Duration) -> Bool {
        guard let (scheduler, _) = owner(of: job) else { return false }
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
        guard let (scheduler, foreign) = owner(of: job) else { return false }
        // On a runner with virtual clocks the deadline's "now" was virtual: `remaining` is exact.
        let slack = !foreign && DispatchCapture.hasVirtualClocks ? .zero : deadlineSlack(scheduler, foreign: foreign)
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

/// The scheduler a runner thread belongs to, kept in a thread-local slot.
private enum RunnerThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: ScenarioScheduler? {
        get {
            guard let raw = pthread_getspecific(key) else { return nil }
            return Unmanaged<ScenarioScheduler>.fromOpaque(raw).takeUnretainedValue()
        }
        set {
            if let old = pthread_getspecific(key) { Unmanaged<ScenarioScheduler>.fromOpaque(old).release() }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
        }
    }
}

/// Process-wide settings of the capture.
public enum ScenarioProcess {
    /// Declares that this process runs scenarios and nothing else (a command-line runner or one of
    /// its workers): every Swift job enqueued while a scenario runs, from any thread, is then that
    /// scenario's, and work that enters from a thread the scenario does not own is reported as an
    /// escape. Without it (inside `swift test`, beside other tests) only jobs that can be traced to
    /// the scenario are captured.
    public static func claimWholeProcess() { Capture.claimWholeProcess() }
}
