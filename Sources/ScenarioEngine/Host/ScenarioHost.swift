import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one host of scenarios in a process. What the capture installs is process-wide (the
/// runtime's hooks, Dispatch's entry points, the URL routes), so scenarios take turns at it; it
/// knows which scenario runs and which jobs are its, watches for stalls, and holds the routes
/// of the URLSession requests. Two things about it change how a scenario is judged, and both
/// are visible: its ``Mode`` (who else runs in the process) and its ``CaptureLevel`` (what of
/// the stack it can own). Every result says both (``ScenarioResult/host``).
package final class ScenarioHost: @unchecked Sendable {
    /// Who else runs in the process.
    package enum Mode: String, Sendable, Hashable, Codable {
        /// Scenarios and nothing else (`scenario run` and its workers): every job enqueued while
        /// a scenario runs is that scenario's, wherever it comes from, and work that enters from
        /// a thread the scenario does not own is reported as an escape.
        case wholeProcess
        /// Beside other tests (a test bundle): only jobs traced to the scenario are its own (its
        /// thread's, and those it owned before); work from other threads is left to the runtime,
        /// since it may be another test's.
        case besideOtherTests
    }

    /// What of the stack a scenario can own.
    package enum CaptureLevel: String, Sendable, Hashable, Codable, CaseIterable {
        /// Swift concurrency, URLSession, Dispatch (queues, timers, groups, semaphores),
        /// blocking waits, run-loop timers, the clocks and the network guard: Linux.
        case full
        /// Swift concurrency and URLSession only: what Apple platforms get. Dispatch work that
        /// comes back from another thread is an escape, and timers run in real time.
        case concurrencyOnly

        /// `SCENARIO_CAPTURE` names the level (on Linux, to see what Apple platforms get);
        /// otherwise the most this platform can do.
        static func fromEnvironment(_ environment: [String: String]) -> CaptureLevel {
            if let named = environment[variable].flatMap(CaptureLevel.init(rawValue:)) { return named }
            #if os(Linux)
                return .full
            #else
                return .concurrencyOnly
            #endif
        }

        package static let variable = "SCENARIO_CAPTURE"
    }

    /// The host of this process.
    package static let shared = ScenarioHost(level: .fromEnvironment(ProcessInfo.processInfo.environment))

    /// What of the stack scenarios here can own.
    package let level: CaptureLevel
    /// Whose turn it is: scenarios in one process run one after another.
    let turn = ProcessTurn()
    /// The URLSession requests' routes to their runs' backends.
    let runs = URLSessionRuns()

    private let lock = NSLock()
    private var wholeProcess = false
    private var watchingStalls = false
    /// The running scenario.
    private var running: ScenarioScheduler?
    /// Jobs scenarios owned, and tasks of theirs that handed work to another thread (a URLSession
    /// load, declared outside work) and will be resumed from there.
    private var owned = OwnedJobs()

    init(level: CaptureLevel) { self.level = level }

    /// Who else runs in the process.
    package var mode: Mode { lock.withLock { wholeProcess ? .wholeProcess : .besideOtherTests } }

    /// The mode and level in words, for reports: `whole process, full capture`.
    package var summary: String {
        (mode == .wholeProcess ? "whole process" : "beside other tests") + ", " + (level == .full ? "full capture" : "concurrency only")
    }

    /// Declares that this process runs scenarios and nothing else (see ``Mode/wholeProcess``).
    package func claimWholeProcess() { lock.withLock { wholeProcess = true } }

    /// Whether a run kept the turn for good: this process runs no more scenarios.
    package var isLost: Bool { turn.isLost }

    /// Whether Dispatch, blocking waits, run-loop timers, the clocks and the network are owned.
    var capturesDispatch: Bool { level == .full }

    // MARK: - Which scenario runs, and which jobs are its

    /// Makes `scheduler` the running scenario, owned by the calling thread.
    func begin(_ scheduler: ScenarioScheduler) {
        if capturesDispatch { _ = DispatchCapture.install() }
        lock.withLock {
            running = scheduler
            // In a process of scenarios alone every job is the running one's: no need to know
            // the address of each to find its owner again.
            scheduler.remembersJobs = !wholeProcess
        }
        RunnerThread.current = scheduler
        if capturesDispatch { DispatchCapture.useVirtualClocks(startingAt: scheduler.clock.start) }
    }

    /// Forgets the scenario: no job is captured for it any more.
    func end(_ scheduler: ScenarioScheduler) {
        if capturesDispatch {
            DispatchCapture.useRealClocks()
            DispatchCapture.forget(scheduler)
        }
        RunnerThread.current = nil
        lock.withLock {
            if running === scheduler { running = nil }
            owned.forget(scheduler)
        }
    }

    /// The running scenario's thread is kept by the stack for good: the process goes on with
    /// other work (reports, worker processes, other tests), so nothing from elsewhere is counted
    /// as that scenario's any more (no job, no connection refused in its name), and the addresses
    /// of jobs it owned, which new jobs may reuse, are forgotten.
    func abandonRunning() {
        lock.withLock {
            wholeProcess = false
            if let running { owned.forget(running) }
            running = nil
        }
    }

    /// The running scenario, if any (scenarios take turns, so there is one).
    var runningScenario: ScenarioScheduler? { lock.withLock { running } }

    /// The running scenario, in a process that runs nothing but scenarios.
    var wholeProcessScenario: ScenarioScheduler? { lock.withLock { wholeProcess ? running : nil } }

    /// The scheduler the calling thread runs, if it is a runner thread.
    var currentScheduler: ScenarioScheduler? { RunnerThread.current }

    /// The owner of a job, whether it came from outside the owner's thread, and whether it is the
    /// resume of a task that waited on another thread (see ``rememberCurrentTask()``).
    func owner(of job: UnownedJob) -> (ScenarioScheduler, foreign: Bool, awaited: Bool)? {
        // Asked only where it is needed: a process of scenarios alone keeps no jobs on the runner.
        func identify() -> JobIdentity {
            let address = unsafeBitCast(job, to: UnsafeRawPointer.self)
            return JobIdentity(address: address, task: RuntimeHooks.taskID(of: address))
        }
        if let mine = RunnerThread.current {
            if mine.remembersJobs {
                let identity = identify()
                if mine.recentlyRemembered.insert(identity) { lock.withLock { owned.remember(identity, for: mine) } }
            }
            return (mine, false, false)
        }
        let identity = identify()
        return lock.withLock {
            if let (owner, awaited) = owned.owner(of: identity) { return (owner, true, awaited) }
            if wholeProcess, let running {
                owned.remember(identity, for: running)
                return (running, true, false)
            }
            return nil
        }
    }

    /// The task running on a runner thread is about to wait on another thread (a URLSession
    /// request, declared outside work): remembered, so the resume from there is the scenario's
    /// even when none of the task's jobs passed the hooks before.
    func rememberCurrentTask() {
        guard let mine = RunnerThread.current, let task = RuntimeHooks.currentTask else { return }
        let identity = JobIdentity(address: task, task: RuntimeHooks.taskID(of: task))
        lock.withLock { owned.awaitResume(of: identity, for: mine) }
    }

    /// Which scenario runs (by its scheduler and file) and how much of its work ran: it changes
    /// while scenarios progress.
    var progress: Progress {
        guard let scheduler = runningScenario else { return Progress(scheduler: nil, file: nil, workRun: 0) }
        return Progress(scheduler: ObjectIdentifier(scheduler), file: scheduler.scenarioFile, workRun: scheduler.workRun)
    }

    struct Progress: Equatable {
        var scheduler: ObjectIdentifier?
        var file: String?
        var workRun: Int
    }

    // MARK: - Stalls

    /// Starts watching for a scenario that blocks its thread for real, once per process; `true`
    /// for the first caller only.
    func startWatchingStalls() -> Bool {
        lock.withLock {
            defer { watchingStalls = true }
            return !watchingStalls
        }
    }

    /// Where scenarios run beside other work (a test bundle): a scenario that goes
    /// ``StallWatch/limit`` without running any of its work ends as an error saying so (see
    /// ``StallWatch``); a process of scenarios alone is watched by its command instead.
    func watchForStalls() {
        guard mode == .besideOtherTests else { return }
        StallWatch.endRunsThatStall(after: StallWatch.limit, then: "this process runs no more scenarios")
    }
}

/// The scheduler a runner thread belongs to, kept in a thread-local slot.
enum RunnerThread {
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
