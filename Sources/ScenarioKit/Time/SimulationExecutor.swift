import Foundation

/// A task executor that runs every job of one scenario on the runner's thread, one at a time,
/// in the order they were enqueued.
///
/// Because the stack under test prefers this executor for all its tasks (default actors follow
/// the preference too), an empty queue means the app is idle: every task is suspended on the
/// virtual clock, on the scripted backend, or done. No yielding and hoping.
public final class SimulationExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    private var externalWork = 0

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

    /// Marks work that runs outside this executor (a request inside URLSession) and will come
    /// back to it: the app is not idle until it has.
    package func beginExternalWork() {
        condition.lock()
        externalWork += 1
        condition.unlock()
    }

    /// Ends work marked with ``beginExternalWork()``.
    package func endExternalWork() {
        condition.lock()
        externalWork -= 1
        condition.signal()
        condition.unlock()
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
            if queue.isEmpty, externalWork > 0 {
                // Only URLSession's own threads can refill the queue now; wait for them.
                let deadline = Date(timeIntervalSinceNow: externalWait)
                while queue.isEmpty, externalWork > 0 {
                    if !condition.wait(until: deadline) {
                        let pending = externalWork
                        condition.unlock()
                        throw .externalWorkTimedOut(pending: pending)
                    }
                }
            }
            guard !queue.isEmpty else {
                condition.unlock()
                return ran
            }
            let job = queue.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            ran += 1
            if ran > jobLimit { throw .busy(jobs: ran) }
        }
    }
}
