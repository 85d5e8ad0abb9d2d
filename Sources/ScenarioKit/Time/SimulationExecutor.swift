import Foundation

/// A task executor that runs every job of one scenario on the runner's thread, one at a time,
/// in the order they were enqueued.
///
/// Because the stack under test prefers this executor for all its tasks (default actors follow
/// the preference too), an empty queue means the app is idle: every task is suspended on the
/// virtual clock, on the scripted backend, or done. No yielding and hoping.
public final class SimulationExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs to run; `head` is the next one (a moving index keeps taking a job O(1)).
    private var queue: [UnownedJob] = []
    private var head = 0
    private var outsidePending: @Sendable () -> Int = { 0 }

    /// Creates an executor with an empty queue.
    public init() {}

    /// Appends the job to the queue, to run in turn on the runner's thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        queue.append(unowned)
        condition.signal()
        condition.unlock()
    }

    /// Tells the executor how many requests are away outside it (inside URLSession) and will
    /// come back to it: the app is not idle while any is.
    package func watchOutsideWork(_ pending: @escaping @Sendable () -> Int) {
        condition.withLock { outsidePending = pending }
    }

    /// Wakes a runner waiting for outside work to come back.
    package func outsideWorkChanged() {
        condition.withLock { condition.broadcast() }
    }

    /// Why ``runUntilIdle(jobLimit:externalWait:)`` gave up.
    package enum SettleFailure: Error, Equatable {
        /// More jobs ran than the limit: the app keeps itself busy.
        case busy(jobs: Int)
        /// Work outside the executor did not come back in time.
        case externalWorkTimedOut(pending: Int)
    }

    /// Runs jobs on the calling thread until none is queued and no outside work is pending.
    /// - Returns: how many jobs ran.
    @discardableResult
    package func runUntilIdle(jobLimit: Int = 2_000_000, externalWait: TimeInterval = 30) throws(SettleFailure) -> Int {
        var ran = 0
        while true {
            condition.lock()
            if head == queue.count, outsidePending() > 0 {
                // Only URLSession's own threads can refill the queue now; wait for them.
                let deadline = Date(timeIntervalSinceNow: externalWait)
                while head == queue.count, outsidePending() > 0 {
                    if !condition.wait(until: deadline) {
                        let pending = outsidePending()
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
            let job = queue[head]
            head += 1
            if head >= 4096, head * 2 >= queue.count {
                // A long busy stretch: drop the run part so the array does not grow without end.
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            ran += 1
            if ran > jobLimit { throw .busy(jobs: ran) }
        }
    }
}
