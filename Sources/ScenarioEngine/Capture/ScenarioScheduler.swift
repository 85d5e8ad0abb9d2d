import CRuntimeHooks
import Foundation

/// Every Swift job of one scenario, run on the runner's thread one at a time in the order they
/// arrive, with `Task.sleep` turned into deadlines on the scenario's virtual clock.
///
/// The runtime hooks (``Capture``) hand jobs here: unstructured and detached tasks, task group
/// children, actor and main-actor hops, and sleeps. Because every job of the stack lands in this
/// one queue, an empty queue means the app is idle: every task waits on the virtual clock, on
/// the scripted backend, on declared outside work, or is done. No yielding and hoping.
final class ScenarioScheduler: @unchecked Sendable {
    struct Entry {
        var work: Work
        /// When it was queued, on Dispatch's real clock (Swift's clocks are virtual on a Linux
        /// runner), where deadlines are estimated from it (``Capture/deadlineSlack(_:foreign:)``).
        var queuedAt: UInt64
        /// Its place among everything queued in this run: what names it when nothing lasting does.
        var sequence: Int
    }

    let condition = NSCondition()
    // The state below is the lock's (or the runner thread's alone): `@exclusivity(unchecked)`
    // spares the dynamic check of every access, a tenth of the engine's time per exchange; the
    // thread sanitizer's pass in CI still watches it.
    /// Work to run and when each was queued; `head` is the next one (a moving index keeps
    /// taking an entry O(1)).
    @exclusivity(unchecked) var queue: [Entry] = []
    @exclusivity(unchecked) private var order: JobOrder
    /// What an explored schedule gives priorities to.
    @exclusivity(unchecked) private var ordinals = TaskOrdinals()
    /// How many entries were queued so far.
    @exclusivity(unchecked) private var queued = 0

    func entry(_ work: Work) -> Entry {
        queued += 1
        return Entry(work: work, queuedAt: DispatchTime.now().uptimeNanoseconds, sequence: queued)
    }
    /// Whether the host keeps every job this scenario runs, to know a resume from
    /// another thread as its own (beside other tests); set before the run, read on its thread.
    var remembersJobs = true
    /// The last few jobs the host remembered for this scenario (runner thread only): a task is
    /// enqueued again and again, and remembering it once is enough (the host forgets a
    /// scenario's jobs only when its run ends).
    @exclusivity(unchecked) var recentlyRemembered = RecentJobs()
    /// Jobs and blocks run so far in this scenario.
    @exclusivity(unchecked) private(set) var jobsRun = 0
    @exclusivity(unchecked) var head = 0
    private var escapeNotes: [String] = []
    /// Whether a main-actor job or main-queue block runs now (runner thread only).
    @exclusivity(unchecked) private var runningMain = false
    /// The Dispatch queue the running work is "on" (read on the runner thread only).
    @exclusivity(unchecked) private(set) var currentQueue: DispatchCapture.Object?
    /// The serial queues of the work running on the runner (runner thread only).
    @exclusivity(unchecked) private var held = HeldQueues()
    /// How far the app's blocking waits may move virtual time in the current step, and what ends
    /// the run when one goes further (runner thread only; see ``WaitLimits``).
    var waitLimits: WaitLimits?
    /// Answers waiting to reach the stack (see ``DueAnswers``).
    @exclusivity(unchecked) private var deliveries = DueAnswers()
    /// News from other threads (an answer, a change in the work away), counted under the lock.
    private let news = NewsCount()
    /// `group.notify` blocks waiting for their group to empty.
    let notifications = DispatchNotifications()
    /// When the running job was queued, on the runner thread (read there only).
    @exclusivity(unchecked) private var runningJobQueuedAt = DispatchTime.now().uptimeNanoseconds
    let clock: VirtualClock
    /// Work away from the runner thread that will come back: URLSession loads, declared work.
    let outside: OutsideWork

    /// The scenario's file, for messages about the process that runs it.
    let scenarioFile: String

    init(clock: VirtualClock, order: JobOrder, scenarioFile: String = "") {
        self.scenarioFile = scenarioFile
        self.clock = clock
        self.order = order
        let (condition, news) = (self.condition, self.news)
        self.outside = OutsideWork(changed: {
            condition.withLock {
                news.count += 1
                condition.broadcast()
            }
        })
    }

    /// How many times other threads brought news; read and written with the queue's lock held.
    private final class NewsCount: @unchecked Sendable {
        var count = 0
    }

    /// Jobs and blocks run so far, read from any thread.
    var workRun: Int { condition.withLock { jobsRun } }

    /// Where the schedule departed from first in, first out so far, and the position it picked.
    var scheduleDepartures: [ExplicitSchedule.Place: Int] { condition.withLock { order.departures } }

    /// The run begins step `step`: the schedule's choices are counted within it.
    func enterStep(_ step: Int) { condition.withLock { order.enterStep(step) } }

    /// Whether the runner is running a main-actor job right now (for isolation checks).
    /// (Asked on the runner thread only: `Capture.currentScheduler` is the calling runner's.)
    var isRunningMainJob: Bool { runningMain }

    /// Everything that reached the scenario from outside without being expected, in order.
    var escapes: [String] { condition.withLock { escapeNotes } }

    /// Queues a job. A job from another thread is expected only while outside work is away
    /// (where only Swift concurrency is captured: only the resume of a task that handed work away,
    /// `awaited`, or while declared work is away); otherwise it escaped (a `DispatchQueue` hop,
    /// a `Thread`, a real timer) and is reported.
    func enqueue(_ job: UnownedJob, lane: Lane, foreign: Bool, awaited: Bool = false) {
        enqueue(.job(job, lane), foreign: foreign, awaited: awaited, what: lane == .main ? "a main-actor job" : "a job")
    }

    /// Queues a block taken from Dispatch.
    func enqueue(_ block: DispatchWork, foreign: Bool) {
        enqueue(.block(block), foreign: foreign, awaited: false, what: "a block for \(block.queueLabel)")
    }

    private func enqueue(_ work: Work, foreign: Bool, awaited: Bool, what: @autoclosure () -> String) {
        let thread = foreign ? Self.threadName() : ""
        condition.withLock {
            // Picked up under the queue's lock: the runner never sees the answer gone and the job not yet queued.
            if foreign, !expects(awaited: awaited), escapeNotes.count < 20 {
                recordEscape(
                    "\(what()) was enqueued from \(thread) while nothing outside the scenario was expected to come back (a Thread, a real timer, a callback API the scenario cannot see?); declare such work with context.outsideWork(_:)"
                        + (ScenarioHost.shared.capturesDispatch ? "" : StuckMessage.concurrencyOnlyAdvice)
                )
            }
            queue.append(entry(work))
            condition.signal()
        }
    }

    /// Whether a job from another thread was expected (lock held). With full capture, anything
    /// away may send it; where only Swift concurrency is captured, what comes back from other
    /// threads depends on their timing, so only the resume of a task that handed work away, or
    /// declared work, is expected: the same jobs escape on every run.
    private func expects(awaited: Bool) -> Bool {
        let pickedUp = outside.pickUp()
        return ScenarioHost.shared.capturesDispatch ? pickedUp : awaited || outside.hasDeclaredWork
    }

    /// The calling thread, named for a message. The system name is all there is to go by, and on
    /// Linux a new thread inherits its maker's (a `Thread` started from a Dispatch worker is
    /// called `oot.default-qos`), so it is given as a clue, not as the app's name for it.
    private static func threadName() -> String {
        let name = Thread.current.name ?? ""
        return name.isEmpty ? "another thread" : "a thread the scenario does not run (system name '\(name)')"
    }

    /// Records something that escaped the scenario; the run fails with it.
    func noteEscape(_ note: String) { condition.withLock { recordEscape(note) } }

    /// Keeps the first 20 escapes, each once (lock held).
    private func recordEscape(_ note: String) {
        if escapeNotes.count < 20, !escapeNotes.contains(note) { escapeNotes.append(note) }
    }

    /// Real time since the running job was queued; called on the runner thread.
    var timeSinceCurrentJobWasQueued: Duration {
        .nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds &- runningJobQueuedAt))
    }

    /// Puts a sleeping job on the virtual clock.
    func schedule(_ job: UnownedJob, after delay: Duration) {
        let deadline = clock.now.advanced(by: delay)
        clock.schedule(at: deadline, label: "Task.sleep until \(deadline)") { [self] in
            enqueue(job, lane: .generic, foreign: false)
        }
    }

    /// Puts a block (`asyncAfter`) on the virtual clock.
    func schedule(_ block: DispatchWork, after delay: Duration, label: String) {
        let deadline = clock.now.advanced(by: delay)
        clock.schedule(at: deadline, label: "\(label) until \(deadline)") { [self] in
            enqueue(block, foreign: false)
        }
    }

    /// Keeps an answer of the scripted backend until nothing else can run.
    func deliver(_ answer: AnswerDelivery) {
        condition.withLock {
            deliveries.add(entry(.delivery(answer)))
            news.count += 1
            condition.signal()
        }
    }

    /// Runs the next queued entry whose queue no waiting work holds, if any; returns whether one ran.
    func runOne() -> Bool {
        condition.lock()
        queueDue(notifications.due())
        guard let next = takeNext(skippingHeld: true) else {
            condition.unlock()
            return false
        }
        condition.unlock()
        execute(next)
        return true
    }

    /// Why ``runUntilIdle(jobLimit:externalWait:)`` gave up.
    enum SettleFailure: Error, Equatable {
        /// More jobs ran than the limit: the app keeps itself busy.
        case busy(jobs: Int)
        /// Work outside the runner did not come back in time.
        case externalWorkTimedOut(pending: String)
    }

    /// Runs jobs on the calling thread until none is queued and no outside work is pending.
    /// - Returns: how many jobs ran.
    @discardableResult
    func runUntilIdle(jobLimit: Int = 2_000_000, externalWait: TimeInterval = 30) throws(SettleFailure) -> Int {
        var ran = 0
        while true {
            condition.lock()
            if head == queue.count, outside.isAway {
                // Deliveries are settled without the queue's lock: probing URLSession may run `sync` work here.
                condition.unlock()
                _ = outside.settleDeliveries()
                condition.lock()
            }
            if head == queue.count, deliveries.isEmpty || !mayHandOn, outside.isAway {
                // Only other threads can refill the queue now (URLSession, declared work); wait for them.
                let deadline = DispatchTime.now() + externalWait
                while head == queue.count, deliveries.isEmpty || !mayHandOn, outside.isAway {
                    let until = min(deadline, outside.nextCheck ?? deadline)
                    if !condition.wait(until: until) {
                        condition.unlock()
                        let settled = outside.settleDeliveries()
                        condition.lock()
                        if settled { continue }
                        if DispatchTime.now() < deadline { continue }
                        let pending = outside.summary
                        condition.unlock()
                        throw .externalWorkTimedOut(pending: pending)
                    }
                }
            }
            guard let next = takeNext() else {
                queue.removeAll(keepingCapacity: true)
                head = 0
                condition.unlock()
                return ran
            }
            condition.unlock()
            execute(next)
            ran += 1
            if ran > jobLimit { throw .busy(jobs: ran) }
        }
    }

    /// Whether the next answer may go to the stack: always where URLSession passes answers on
    /// inside the scenario (full capture), else once the last one has arrived (see
    /// ``OutsideWork/isPassingOn``).
    private var mayHandOn: Bool { ScenarioHost.shared.capturesDispatch || !outside.isPassingOn }

    /// Whether a queued entry could run beside the work `roots` hold (lock held).
    private func hasRunnableEntry(beside roots: HeldQueues.Roots) -> Bool {
        queue[head...].contains { !roots.hold($0.work) }
    }

    /// Inside a blocking wait with nothing to run, waits a moment of real time for work away from
    /// the runner (a URLSession load, declared work); returns whether any was away.
    func awaitOutsideWork() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let wait = outside.isAway && !hasRunnableEntry(beside: held.roots)
        if wait { _ = condition.wait(until: .now() + OutsideWork.watchInterval) }
        return wait
    }

    /// Takes the next entry to run, in the schedule's order; called with the lock held. Inside a
    /// blocking wait (`skippingHeld`), work of a queue the waiting work holds is passed over.
    private func takeNext(skippingHeld: Bool = false) -> Entry? {
        let roots = skippingHeld ? held.roots : HeldQueues.Roots(serial: [])
        let skip = !roots.isEmpty
        if head == queue.count { queueDue(notifications.due()) }
        if !deliveries.isEmpty, !hasRunnableEntry(beside: roots), mayHandOn {
            // Nothing else can run: the next answer goes (the schedule's pick when exploring).
            let waiting = deliveries.entries
            let chosen = order.isFIFO || waiting.count == 1 ? 0 : order.pick(waiting.map { ordinals.of($0) })
            queue.append(deliveries.handOn(chosen))
        }
        guard head < queue.count else { return nil }
        let together = deliveries.arrivedTogether
        if !order.isFIFO, queue.count - head > 1 || !together.isEmpty {
            // An explored schedule: bring the chosen entry to the front, keeping the others' order.
            // Only the first block of each serial queue may go: a serial queue keeps its order.
            // Answers that arrived together compete too: on the real network the next one does not
            // wait for the app to finish with the last (a guard that checks, hops, then sets).
            var positions: [Int] = []
            var tasks: [Int] = []
            for (index, answer) in together.enumerated() {
                positions.append(-1 - index)
                tasks.append(ordinals.of(answer))
            }
            var seenQueues: Set<UnsafeMutableRawPointer> = []
            for position in head..<queue.count {
                if case .block(let work) = queue[position].work, !work.isConcurrent {
                    guard seenQueues.insert(work.serialRoot).inserted else { continue }
                }
                if roots.hold(queue[position].work) { continue }
                positions.append(position)
                tasks.append(ordinals.of(queue[position]))
            }
            guard !positions.isEmpty else { return nil }
            // First in, first out takes the queue's first entry that may go; answers wait for idleness.
            let chosen = positions[order.pick(tasks, fifo: positions.firstIndex { $0 >= 0 } ?? 0)]
            if chosen < 0 {
                queue.insert(deliveries.handOn(-1 - chosen), at: head)
            } else if chosen != head {
                queue.insert(queue.remove(at: chosen), at: head)
            }
        } else if skip, roots.hold(queue[head].work) {
            guard let first = queue[head...].firstIndex(where: { !roots.hold($0.work) }) else { return nil }
            queue.insert(queue.remove(at: first), at: head)
        }
        let next = queue[head]
        head += 1
        if head >= 4096, head * 2 >= queue.count {
            // A long busy stretch: drop the run part so the array does not grow without end.
            queue.removeFirst(head)
            head = 0
        }
        jobsRun += 1
        return next
    }

    /// Runs an entry on the runner thread "on" its executor or queue.
    private func execute(_ entry: Entry) {
        // Restored after: a nested run (inside `sync` or a wait) must not shift the outer job's.
        let outerQueuedAt = runningJobQueuedAt
        defer { runningJobQueuedAt = outerQueuedAt }
        runningJobQueuedAt = entry.queuedAt
        switch entry.work {
        case .job(let job, let lane):
            let outer = (currentQueue, runningMain)
            runningMain = lane == .main
            currentQueue = lane == .main ? DispatchCapture.mainQueue : nil
            holding(lane == .main ? DispatchCapture.mainQueue : nil) { lane.run(job) }
            currentQueue = outer.0
            runningMain = outer.1
        case .block(let work):
            run(work)
            // A work item's notifications follow it at once, as libdispatch queues them.
            condition.withLock { queueDue(notifications.due(afterRunning: work.sent)) }
        case .delivery(let answer):
            answer.hand()
        }
    }

    func run(_ work: DispatchWork, holdingItsQueue: Bool = false) {
        let outerMain = runningMain
        runningMain = work.isMain
        holding(work.sharesItsQueue ? nil : work.queue) {
            run(on: work.queue, holdingItsRealLock: !holdingItsQueue && work.guardsSharedState, work.run)
        }
        runningMain = outerMain
    }

    /// Runs `body` with `queue` held (see ``HeldQueues``).
    func holding(_ queue: DispatchCapture.Object?, _ body: () -> Void) {
        held.hold(queue)
        body()
        held.release(queue)
    }

    /// Runs `body` "on" `queue`, which the code inside sees as its current queue, holding the
    /// queue's real lock meanwhile when asked: the caller knows whether it guards state the process
    /// shares (see ``DispatchCapture/guardsSharedState(_:)``) and whether it holds the lock already.
    func run(on queue: DispatchCapture.Object, holdingItsRealLock: Bool, _ body: () -> Void) {
        let outer = currentQueue
        currentQueue = queue
        if holdingItsRealLock { DispatchCapture.holdingRealLock(of: queue, body) } else { body() }
        currentQueue = outer
    }

    /// Waits up to `seconds` of real time for news from another thread (a job, an answer, a
    /// request URLSession took up late, declared work); returns whether any came. Only for a run
    /// about to be called stuck: work that escaped to another thread is usually still on its way
    /// back, and naming it beats calling the run stuck.
    func awaitStraggler(seconds: TimeInterval) -> Bool {
        let deadline = DispatchTime.now() + seconds
        condition.lock()
        defer { condition.unlock() }
        let before = news.count
        while head == queue.count, news.count == before {
            if !condition.wait(until: deadline) { break }
        }
        return head < queue.count || news.count != before
    }
}
