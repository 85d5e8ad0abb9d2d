import CRuntimeHooks
import Foundation

/// Dispatch as the scenario's: blocks the stack sends to the main queue or to its own queues,
/// `asyncAfter`, groups, `sync`, and Dispatch timers, while a scenario runs.
///
/// The C target redirects libdispatch's entry points that Swift's Dispatch module calls (on
/// Linux). Each call lands here first and is taken when it belongs to a running scenario: it was
/// made on the runner thread, or it targets a queue the scenario already used, or (in a process
/// that runs only scenarios) the main queue. A taken block runs later on the runner thread, one
/// at a time with the scenario's Swift jobs, "on" its queue: `dispatchPrecondition` and
/// `DispatchQueue.getSpecific` answer for that queue, and a main-queue block counts as the main
/// actor. Everything else goes to libdispatch untouched.
enum DispatchCapture {
    /// A queue, group, source or semaphore, by address.
    typealias Object = UnsafeMutableRawPointer

    private static let installed: Bool = {
        var handlers = ssdc_handlers()
        handlers.async = { queue, block, group, _ in take(queue: queue, block: block, group: group) ? 1 : 0 }
        handlers.after = { when, queue, block in takeAfter(when: when, queue: queue, block: block) ? 1 : 0 }
        handlers.sync = { queue, block, _ in takeSync(queue: queue, block: block) ? 1 : 0 }
        handlers.group_notify = { group, queue, block in takeNotify(group: group, queue: queue, block: block) ? 1 : 0 }
        handlers.block_notify = { block, queue, notification in
            takeWorkItemNotify(block: block, queue: queue, notification: notification) ? 1 : 0
        }
        handlers.wait = { object, timeout, kind, result in
            takeWait(object, timeout: timeout, on: WaitKind(rawValue: kind) ?? .semaphore, result: result) ? 1 : 0
        }
        handlers.source_created = { source, type, queue in sourceCreated(source, type: type, queue: queue) }
        handlers.source_set_timer = { source, start, interval, _ in setTimer(source, start: start, interval: interval) ? 1 : 0 }
        handlers.source_set_event_handler = { source, block in setEventHandler(source, block: block) }
        handlers.state_changed = { object, change in stateChanged(object, change: change) }
        handlers.assert_queue = { queue, kind in assertQueue(queue, kind: kind) ? 1 : 0 }
        handlers.get_specific = { key, value in getSpecific(key, value: value) ? 1 : 0 }
        handlers.targeted = { queue, target, created in targeted(queue, target, created: created != 0) }
        handlers.transfer = { easy in holdsBack(easy) ? 1 : 0 }
        handlers.connection = { destination in refusesConnection(to: destination.map { String(cString: $0) } ?? "the network") ? 1 : 0 }
        handlers.run_loop_timer = { timer, mode, loop in RunLoopTimer.take(timer, mode: mode, loop: loop) ? 1 : 0 }
        handlers.sleep = { nanoseconds in sleepOnVirtualTime(nanoseconds) ? 1 : 0 }
        handlers.blocked = { limit in stepWhileBlocked(limit: limit) }
        handlers.on_main = { runsOnMain(Capture.currentScheduler?.currentQueue) ? 1 : 0 }
        return ssdc_install(&handlers) == 0
    }()

    /// Redirects Dispatch once per process; returns whether this platform allows it.
    @discardableResult
    static func install() -> Bool { installed }

    /// Whether a runner thread's `ContinuousClock` and `SuspendingClock` read its scenario's
    /// virtual clock (Linux, with Swift's runtime libraries linked dynamically).
    static let hasVirtualClocks: Bool = installed && ssdc_virtual_clocks_available() != 0

    /// Whether a runner thread's `Date()` reads its scenario's clock (Linux, with Foundation
    /// linked dynamically).
    static let hasVirtualDates: Bool = installed && ssdc_virtual_dates_available() != 0

    /// Whether `Thread.sleep` and condition waits on a runner thread are its scenario's (Linux,
    /// with Foundation linked dynamically).
    static let hasVirtualWaits: Bool = installed && ssdc_virtual_waits_available() != 0

    /// Whether `usleep`, `sleep` and `nanosleep` called from the program's own code (the stack's,
    /// linked into it) sleep on virtual time on a runner (Linux, not under a sanitizer, whose
    /// runtime defines them in the program: see ``programDefinesSleeps``).
    static let hasVirtualProgramSleeps: Bool = installed && ssdc_virtual_program_sleeps_available() != 0

    /// Whether `Thread.isMainThread` answers yes on a runner running main-queue work (Linux, with
    /// Foundation linked dynamically).
    static let hasMainThreadAnswer: Bool = installed && ssdc_main_thread_available() != 0

    /// Whether the program's own `connect` and `getaddrinfo` (SwiftNIO's, AsyncHTTPClient's, a
    /// socket's) are refused away from this machine while a scenario runs (Linux, not under a
    /// sanitizer, whose runtime defines them in the program).
    static let guardsConnections: Bool = installed && ssdc_connection_guard_available() != 0

    /// Whether threads the scenario's code starts are counted (``threadsStartedAlive``).
    static let countsThreads: Bool = installed && ssdc_thread_count_available() != 0

    /// How many threads the scenario's code started (from a runner, or from such a thread) are
    /// still running: work on them may still come back.
    static var threadsStartedAlive: Int { Int(ssdc_scenario_threads_alive()) }

    /// Whether the program defines the C library's sleeps itself, as a sanitizer's runtime does.
    static let programDefinesSleeps: Bool = ssdc_program_defines_sleeps() != 0

    /// From now on, on this (runner) thread, `ContinuousClock.now` and `SuspendingClock.now` move
    /// with the running scenario's virtual clock only, and `Date()` is the scenario's instant.
    static func useVirtualClocks(startingAt start: Date) {
        guard hasVirtualClocks || hasVirtualDates else { return }
        // A start the loader did not check (a scenario built in code) saturates instead of trapping.
        let nanoseconds = (start.timeIntervalSince1970 * 1e9).rounded(.down)
        let wallStart = nanoseconds < 0x1p63 ? Int64(max(nanoseconds, -0x1p63)) : .max
        ssdc_virtual_clocks_begin({ Capture.currentScheduler?.clock.now.offset.nanoseconds ?? 0 }, wallStart)
    }

    /// The calling thread's clocks are real again.
    static func useRealClocks() {
        if hasVirtualClocks || hasVirtualDates { ssdc_virtual_clocks_end() }
    }

    /// Runs `body` with this thread's clocks real: the engine's own waits on a runner thread.
    static func withRealClocks<T>(_ body: () -> T) -> T {
        let suspended = ssdc_virtual_clocks_suspend()
        defer { ssdc_virtual_clocks_resume(suspended) }
        return body()
    }

    nonisolated(unsafe) static let mainQueue: Object? = ssdc_main_queue()

    private static let lock = NSLock()
    /// Queues the running scenario used, so blocks sent to them from other threads come back.
    nonisolated(unsafe) private static var queues: [Object: ScenarioScheduler] = [:]
    nonisolated(unsafe) private static var timers: [Object: DispatchTimer] = [:]
    /// Every queue's target queue other than the default, as set when it was made or later.
    nonisolated(unsafe) private static var targets: [Object: Object] = [:]
    /// Foundation's queues made on a runner while its scenario runs (a routed task's own): only
    /// that scenario uses them.
    nonisolated(unsafe) private static var runnerMade: [Object: ScenarioScheduler] = [:]

    private static func targeted(_ queue: Object?, _ target: Object?, created: Bool) {
        guard let queue else { return }
        let creator = Capture.currentScheduler
        let kind: QueueKind? = creator == nil ? nil : Self.kind(of: queue)
        lock.withLock {
            // A queue made at an address the scenario knew is another queue: the one it knew is
            // gone. Left in place, the new queue (another test's URLSession, say) would be taken
            // for the scenario's and its blocks run on the runner beside its real ones.
            if created {
                queues[queue] = nil
                runnerMade[queue] = nil
            }
            targets[queue] = target.flatMap { ssdc_is_global_queue($0) != 0 ? nil : $0 }
            guard let creator, let kind else { return }
            switch kind {
            case .other: queues[queue] = creator
            case .foundations: if created { runnerMade[queue] = creator }
            case .shared, .curls: break
            }
        }
    }

    /// Whether `queue` runs blocks side by side: a global queue, or one made `.concurrent` (an
    /// `OperationQueue`'s own, say) aimed at one. While a block of it waits, the queue's other
    /// blocks may run, as on libdispatch's threads.
    static func runsSideBySide(_ queue: Object) -> Bool {
        if ssdc_is_global_queue(queue) != 0 { return true }
        guard ssdc_is_concurrent_queue(queue) != 0 else { return false }
        return lock.withLock { targets[queue] == nil }
    }

    /// The serial queue that orders `queue`'s blocks: the last queue of its target chain before
    /// a global one (a queue made with a target runs its blocks on that target, in one order).
    static func serialRoot(of queue: Object) -> Object {
        lock.withLock { walkTargets(from: queue) }
    }

    /// Whether blocks of `queue` run on the main thread: the main queue, or a queue whose target
    /// chain leads to it (`DispatchQueue(label:target: .main)`).
    static func runsOnMain(_ queue: Object?) -> Bool {
        guard let queue, let mainQueue else { return false }
        return queue == mainQueue || lock.withLock { walkTargets(from: queue) { $0 == mainQueue } } == mainQueue
    }

    /// The scenario that owns `queue` or a queue it targets (lock held): a queue aimed at the
    /// scenario's runs its blocks in that queue's order, so they are the scenario's too (a
    /// URLSession task's own queue targets its session's).
    private static func scenario(orderingBlocksOf queue: Object) -> ScenarioScheduler? {
        queues[walkTargets(from: queue) { queues[$0] != nil }]
    }

    /// Follows `queue`'s target chain (lock held) to the first queue where `stop` holds, or else
    /// the last one; at most 64 steps, in case a chain loops.
    private static func walkTargets(from queue: Object, until stop: (Object) -> Bool = { _ in false }) -> Object {
        var current = queue
        for _ in 0..<64 {
            guard !stop(current), let next = targets[current], next != current else { break }
            current = next
        }
        return current
    }

    /// Forgets everything `scheduler` owned: its queues go back to libdispatch.
    static func forget(_ scheduler: ScenarioScheduler) {
        let dropped: [DispatchTimer] = lock.withLock {
            queues = queues.filter { $0.value !== scheduler }
            runnerMade = runnerMade.filter { $0.value !== scheduler }
            let mine = timers.values.filter { $0.scheduler === scheduler }
            timers = timers.filter { $0.value.scheduler !== scheduler }
            return mine
        }
        for timer in dropped { timer.cancel() }
    }

    /// The scenario a call on `queue` belongs to, and whether it comes from another thread.
    private static func owner(of queue: Object?) -> (ScenarioScheduler, foreign: Bool)? {
        let kind = queue.map(Self.kind(of:))
        if kind == .curls {
            // Only a scenario's own session's multi handle (aimed at its queue) is the
            // scenario's: its transfers are all held back, so its timers call libcurl with
            // nothing to send, in the scenario's order. Any other stays libdispatch's.
            guard let queue, let known = lock.withLock({ scenario(orderingBlocksOf: queue) }) else { return nil }
            return (known, Capture.currentScheduler !== known)
        }
        if let mine = Capture.currentScheduler {
            if let queue, kind == .other { lock.withLock { queues[queue] = mine } }
            return (mine, false)
        }
        guard let queue else { return nil }
        if let known = lock.withLock({ scenario(orderingBlocksOf: queue) }) { return (known, true) }
        if queue == mainQueue, let running = ScenarioHost.shared.wholeProcessScenario { return (running, true) }
        return nil
    }

    /// What a queue is to the capture, from its identity and label.
    private enum QueueKind {
        /// The main queue and the global queues: everyone's. A use from the runner thread does not
        /// make them the scenario's for other threads.
        case shared
        /// Foundation's own queues (cookie storage, URLSession's): everyone's too, captured when
        /// used from the runner, never for other threads, which may be other tests' or the process's.
        case foundations
        /// FoundationNetworking's libcurl machinery (a session's multi handle, its socket and
        /// timeout sources): the scenario's only through the session it belongs to, never by
        /// use from the runner, since a real transfer's timer run there would call libcurl
        /// beside the thread already inside it.
        case curls
        /// Any other queue: the scenario's once the runner uses it.
        case other
    }

    /// Every Dispatch call of the process asks, so it reads the label (a pointer libdispatch keeps)
    /// once and compares only its first bytes.
    private static func kind(of queue: Object) -> QueueKind {
        if queue == mainQueue || ssdc_is_global_queue(queue) != 0 { return .shared }
        guard let raw = ssdc_queue_label(queue) else { return .other }
        if strncmp(raw, "org.swift.", 10) == 0 || strncmp(raw, "com.apple.", 10) == 0 { return .foundations }
        return strncmp(raw, "MultiHandle.", 12) == 0 ? .curls : .other
    }

    /// Whether a block the runner took for `queue` must run under the queue's real lock:
    /// Foundation's queues made before the run (the shared cookie storage's, a shared session's)
    /// guard state that other threads of the process use at the same time.
    static func guardsSharedState(_ queue: Object) -> Bool {
        switch kind(of: queue) {
        case .foundations: lock.withLock { runnerMade[queue] == nil }
        // The runner stands in for the main queue, and a global queue holds no lock: neither is
        // held for real (a real `sync` on the main queue would run the block on the main thread).
        case .shared, .curls, .other: false
        }
    }

    /// Runs `body` on this thread holding `queue` (and the queues it targets) as libdispatch's
    /// `sync` does, so that other threads' blocks of that queue wait meanwhile.
    static func holdingRealLock(of queue: Object, _ body: () -> Void) {
        withoutActuallyEscaping(body) { body in
            var body = body
            withUnsafeMutablePointer(to: &body) { pointer in
                ssdc_real_sync_f(queue, pointer) { context in
                    context?.assumingMemoryBound(to: (() -> Void).self).pointee()
                }
            }
        }
    }

    private static func take(queue: Object?, block: Object?, group: Object?) -> Bool {
        guard let queue, let block, let (scheduler, foreign) = owner(of: queue) else { return false }
        scheduler.enqueue(DispatchWork(queue: queue, block: block, group: group), foreign: foreign)
        return true
    }

    private static func takeAfter(when: UInt64, queue: Object?, block: Object?) -> Bool {
        guard let queue, let block, let (scheduler, foreign) = owner(of: queue) else { return false }
        let remaining = Duration.nanoseconds(ssdc_nanoseconds_until(when))
        let delay = Capture.roundest(from: remaining, to: remaining + Capture.deadlineSlack(scheduler, foreign: foreign))
        let work = DispatchWork(queue: queue, block: block, group: nil)
        scheduler.schedule(work, after: delay, label: "asyncAfter on \(work.queueLabel)")
        return true
    }

    private static func takeSync(queue: Object?, block: Object?) -> Bool {
        // A libcurl queue goes to libdispatch, from the runner too (`owner` notes the escape).
        guard let queue, let block, let (scheduler, foreign) = owner(of: queue) else { return false }
        if !foreign {
            scheduler.runSync(on: queue, block: block)
            return true
        }
        // Another thread waits for the queue: the runner runs the block in its turn.
        let done = DispatchSemaphore(value: 0)
        scheduler.enqueue(DispatchWork(queue: queue, borrowing: block, done: done), foreign: true)
        done.wait()
        return true
    }

    private static func takeNotify(group: Object?, queue: Object?, block: Object?) -> Bool {
        guard let group, let queue, let block, let (scheduler, _) = owner(of: queue) else { return false }
        scheduler.notify(group, work: DispatchWork(queue: queue, block: block, group: nil))
        return true
    }

    /// `DispatchWorkItem.notify(queue:)` toward a queue of the scenario's: queued once the item
    /// has run (see ``ScenarioScheduler/notify(afterWorkItem:work:)``).
    private static func takeWorkItemNotify(block: Object?, queue: Object?, notification: Object?) -> Bool {
        guard let block, let queue, let notification, let (scheduler, _) = owner(of: queue) else { return false }
        scheduler.notify(afterWorkItem: block, work: DispatchWork(queue: queue, block: notification, group: nil))
        return true
    }

    // MARK: Timers

    private static func sourceCreated(_ source: Object?, type: UnsafeMutableRawPointer?, queue: Object?) {
        guard let source else { return }
        // A timer the scenario knew at this address is gone (see `targeted`).
        let stale = lock.withLock { timers.removeValue(forKey: source) }
        stale?.cancel()
        guard let type, type == ssdc_timer_source_type() else { return }
        guard let (scheduler, _) = owner(of: queue) else { return }
        guard let timer = DispatchTimer(source: source, queue: queue, scheduler: scheduler) else { return }
        lock.withLock { timers[source] = timer }
    }

    private static func timer(_ source: Object?) -> DispatchTimer? {
        guard let source else { return nil }
        return lock.withLock { timers[source] }
    }

    private static func setTimer(_ source: Object?, start: UInt64, interval: UInt64) -> Bool {
        guard let timer = timer(source) else { return false }
        let remaining = Duration.nanoseconds(ssdc_nanoseconds_until(start))
        let slack = Capture.deadlineSlack(timer.scheduler, foreign: Capture.currentScheduler !== timer.scheduler)
        timer.set(
            start: Capture.roundest(from: remaining, to: remaining + slack),
            interval: interval >= UInt64(Int64.max)
                ? nil : Capture.roundest(from: .nanoseconds(Int64(interval)), to: .nanoseconds(Int64(interval))))
        return true
    }

    private static func setEventHandler(_ source: Object?, block: Object?) {
        timer(source)?.setHandler(block)
    }

    private static func stateChanged(_ object: Object?, change: Int32) {
        guard let timer = timer(object) else { return }
        switch change {
        case 0, 1: timer.resume()
        case 2: timer.suspend()
        default: timer.cancel()
        }
    }

    // MARK: Queue identity

    private static func assertQueue(_ queue: Object?, kind: Int32) -> Bool {
        guard let queue, let scheduler = Capture.currentScheduler else { return false }
        let current = scheduler.currentQueue
        let holds = kind == 1 ? current != queue : current == queue
        if !holds {
            let label = DispatchWork.label(of: queue)
            scheduler.noteEscape(
                kind == 1
                    ? "dispatchPrecondition(condition: .notOnQueue(\(label))) failed on the runner"
                    : "dispatchPrecondition(condition: .onQueue(\(label))) failed: the code ran on \(current.map(DispatchWork.label(of:)) ?? "no queue")"
            )
        }
        return true
    }

    private static func getSpecific(_ key: UnsafeRawPointer?, value: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Bool {
        guard let scheduler = Capture.currentScheduler else { return false }
        value?.pointee = scheduler.currentQueue.flatMap { ssdc_queue_get_specific($0, key) }
        return true
    }
}
