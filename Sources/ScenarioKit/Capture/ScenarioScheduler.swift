import Foundation

/// Every Swift job of one scenario, run on the runner's thread one at a time in the order they
/// arrive, with `Task.sleep` turned into deadlines on the scenario's virtual clock.
///
/// The runtime hooks (``Capture``) hand jobs here: unstructured and detached tasks, task group
/// children, actor and main-actor hops, and sleeps. Because every job of the stack lands in this
/// one queue, an empty queue means the app is idle: every task waits on the virtual clock, on
/// the scripted backend, on declared outside work, or is done. No yielding and hoping.
final class ScenarioScheduler: @unchecked Sendable {
    /// Where a job runs.
    enum Lane {
        /// Nonisolated code and actors: run as the global executor would.
        case generic
        /// Main-actor code: run "on" the main actor's stand-in, so isolation checks hold.
        case main
    }

    private let condition = NSCondition()
    /// Jobs to run and when each was queued; `head` is the next one (a moving index keeps
    /// taking a job O(1)).
    private var queue: [(job: UnownedJob, lane: Lane, queuedAt: ContinuousClock.Instant)] = []
    private var order: JobOrder
    /// Tasks by the order they first appeared in: what an explored schedule gives priorities to.
    private var ordinals: [UnsafeRawPointer: Int] = [:]
    /// Jobs run so far in this scenario.
    private(set) var jobsRun = 0
    private var head = 0
    private var escapeNotes: [String] = []
    private var runningMain = false
    /// When the running job was queued, on the runner thread (read there only).
    private var runningJobQueuedAt = ContinuousClock.now
    let clock: VirtualClock
    /// Work away from the runner thread that will come back: URLSession loads, declared work.
    let outside: OutsideWork

    init(clock: VirtualClock, order: JobOrder) {
        self.clock = clock
        self.order = order
        let condition = self.condition
        self.outside = OutsideWork(changed: { condition.withLock { condition.broadcast() } })
    }

    /// Whether the runner is running a main-actor job right now (for isolation checks).
    var isRunningMainJob: Bool { condition.withLock { runningMain } }

    /// Everything that reached the scenario from outside without being expected, in order.
    var escapes: [String] { condition.withLock { escapeNotes } }

    /// Queues a job. A job from another thread is expected only while outside work is away;
    /// otherwise it escaped (a `DispatchQueue` hop, a `Thread`, a real timer) and is reported.
    func enqueue(_ job: UnownedJob, lane: Lane, foreign: Bool) {
        condition.withLock {
            // Picked up under the queue's lock: the runner never sees the answer gone and the job not yet queued.
            if foreign, !outside.pickUp(), escapeNotes.count < 20 {
                let note =
                    "a \(lane == .main ? "main-actor " : "")job was enqueued from another thread while nothing outside the scenario was expected to come back (a DispatchQueue hop, a Thread or a real timer?); declare such work with DriverContext.outsideWork(_:)"
                if !escapeNotes.contains(note) { escapeNotes.append(note) }
            }
            queue.append((job, lane, .now))
            condition.signal()
        }
    }

    /// Records something that escaped the scenario; the run fails with it.
    func noteEscape(_ note: String) {
        condition.withLock {
            if escapeNotes.count < 20, !escapeNotes.contains(note) { escapeNotes.append(note) }
        }
    }

    /// Real time since the running job was queued; called on the runner thread.
    var timeSinceCurrentJobWasQueued: Duration { runningJobQueuedAt.duration(to: .now) }

    /// Puts a sleeping job on the virtual clock.
    func schedule(_ job: UnownedJob, after delay: Duration) {
        let deadline = clock.now.advanced(by: delay)
        clock.schedule(at: deadline, label: "Task.sleep until \(deadline)") { [self] in
            enqueue(job, lane: .generic, foreign: false)
        }
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
            if head == queue.count, outside.isAway, !outside.settleDeliveries() || outside.isAway {
                // Only other threads can refill the queue now (URLSession, declared work); wait for them.
                let deadline = Date(timeIntervalSinceNow: externalWait)
                while head == queue.count, outside.isAway {
                    let until = min(deadline, outside.nextCheck ?? deadline)
                    if !condition.wait(until: until) {
                        if outside.settleDeliveries() { continue }
                        if Date() < deadline { continue }
                        let pending = outside.summary
                        condition.unlock()
                        throw .externalWorkTimedOut(pending: pending)
                    }
                }
            }
            guard head < queue.count else {
                queue.removeAll(keepingCapacity: true)
                head = 0
                condition.unlock()
                return ran
            }
            if !order.isFIFO, queue.count - head > 1 {
                // An explored schedule: bring the chosen job to the front, keeping the others' order.
                let chosen = head + order.pick(queue[head...].map { ordinal(of: $0.job) })
                if chosen != head { queue.insert(queue.remove(at: chosen), at: head) }
            }
            let next = queue[head]
            head += 1
            if head >= 4096, head * 2 >= queue.count {
                // A long busy stretch: drop the run part so the array does not grow without end.
                queue.removeFirst(head)
                head = 0
            }
            runningMain = next.lane == .main
            jobsRun += 1
            condition.unlock()
            runningJobQueuedAt = next.queuedAt
            run(next.job, lane: next.lane)
            condition.withLock { runningMain = false }
            ran += 1
            if ran > jobLimit { throw .busy(jobs: ran) }
        }
    }

    private func ordinal(of job: UnownedJob) -> Int {
        let key = unsafeBitCast(job, to: UnsafeRawPointer.self)
        if let known = ordinals[key] { return known }
        ordinals[key] = ordinals.count
        return ordinals.count - 1
    }

    /// Waits up to `seconds` of real time for a job from another thread; returns whether one came.
    /// Only for a run about to be called stuck: work that escaped to another thread is usually
    /// still on its way back, and naming it beats calling the run stuck.
    func awaitStraggler(seconds: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while head == queue.count {
            if !condition.wait(until: deadline) { return head < queue.count }
        }
        return true
    }

    private func run(_ job: UnownedJob, lane: Lane) {
        switch lane {
        case .main:
            job.runSynchronously(on: MainActorStandIn.shared.asUnownedSerialExecutor())
        case .generic:
            if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
                job.runSynchronously(on: GenericTaskStandIn.shared.asUnownedTaskExecutor())
            } else {
                job.runSynchronously(on: GenericStandIn.shared.asUnownedSerialExecutor())
            }
        }
    }
}
