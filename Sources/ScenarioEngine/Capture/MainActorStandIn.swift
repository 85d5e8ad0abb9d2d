import Foundation

#if compiler(>=6.3) && !canImport(Darwin)
    @_spi(ExperimentalScheduling) import _Concurrency
#endif

/// The executor the runtime reports as the main one while scenarios run.
///
/// Main-actor jobs of a scenario run on its runner thread, one at a time with its other jobs,
/// "on" this executor, so `MainActor.assertIsolated()` and `assumeIsolated` hold there. Main-actor
/// jobs that belong to no scenario go on to the real main queue, where isolation checks also
/// hold (the main thread is this executor's too).
final class MainActorStandIn: SerialExecutor, @unchecked Sendable {
    static let shared = MainActorStandIn()

    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    func enqueue(_ job: consuming ExecutorJob) {
        forward(UnownedJob(job))
    }

    func enqueue(_ job: UnownedJob) {
        forward(job)
    }

    private func forward(_ job: UnownedJob) {
        if !Capture.takeMain(job) { RuntimeHooks.enqueueOnRealMain(job) }
    }

    // Spelled out: the protocol's default needs macOS 14 / iOS 17.
    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    /// The runtime asks when the executor it tracks is not this one. The main thread and a
    /// scenario's main-actor job are the main actor. Anything else is reported to the running
    /// scenario as an escape rather than trapping: the hooks must never be what ends a process.
    func checkIsolated() {
        if Thread.isMainThread { return }
        if let scheduler = Capture.currentScheduler, scheduler.isRunningMainJob { return }
        Capture.reportIsolationEscape()
    }
}

/// What a scenario's nonisolated jobs run "on" where task executors do not exist yet: any job
/// sent here goes back through the capture.
final class GenericStandIn: SerialExecutor, @unchecked Sendable {
    static let shared = GenericStandIn()

    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    func enqueue(_ job: consuming ExecutorJob) {
        forward(UnownedJob(job))
    }

    func enqueue(_ job: UnownedJob) {
        forward(job)
    }

    private func forward(_ job: UnownedJob) {
        if !Capture.takeGlobal(job) { RuntimeHooks.enqueueOnGlobal(job) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}

/// The task executor a scenario's nonisolated jobs run on, where the platform has task executors.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
final class GenericTaskStandIn: TaskExecutor, @unchecked Sendable {
    static let shared = GenericTaskStandIn()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !Capture.takeGlobal(job) { RuntimeHooks.enqueueOnGlobal(job) }
    }
}

// Since Swift 6.3 `Task.sleep` asks the executor it runs on first: when that is one of these,
// the sleep becomes a deadline on the scenario's virtual clock, exactly, with no hook involved.
#if compiler(>=6.3) && !canImport(Darwin)
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    extension MainActorStandIn: SchedulingExecutor {
        var asSchedulingExecutor: (any SchedulingExecutor)? { self }

        func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
            DefaultExecutorStandIn.sleep(UnownedJob(job), after: delay, tolerance: tolerance, clock: clock)
        }

        func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
            DefaultExecutorStandIn.sleep(UnownedJob(job), at: instant, tolerance: tolerance, clock: clock)
        }
    }

    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    extension GenericTaskStandIn: SchedulingExecutor {
        var asSchedulingExecutor: (any SchedulingExecutor)? { self }

        func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
            DefaultExecutorStandIn.sleep(UnownedJob(job), after: delay, tolerance: tolerance, clock: clock)
        }

        func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
            DefaultExecutorStandIn.sleep(UnownedJob(job), at: instant, tolerance: tolerance, clock: clock)
        }
    }
#endif
