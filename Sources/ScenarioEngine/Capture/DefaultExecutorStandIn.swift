#if compiler(>=6.3) && !canImport(Darwin)
    @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

    /// The runtime's default executor while this process runs scenarios, on runtimes whose
    /// `Task.sleep` asks executors rather than the hooks.
    ///
    /// Since Swift 6.3 a sleep goes to the first scheduling executor among the current actor's,
    /// the task's preferred one, the thread's, and the default executor. Code of an ordinary
    /// actor has none of the first three, so its sleeps reached the platform's executor past
    /// every hook, on the real clock. This stand-in takes the default's place: a scenario's
    /// sleeps become virtual deadlines, and everything else goes on to the platform's executor
    /// unchanged, so tests running beside scenarios keep real time.
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    final class DefaultExecutorStandIn: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
        // No stored properties, here or in the platform's executor: the runtime may read the
        // default executor (two words, not atomically) while it is being replaced, and a method
        // of either that is handed the other's object still does the right thing.
        private static let platform: any TaskExecutor = Task.defaultExecutor

        /// Makes the stand-in the default executor, once per process.
        static let install: Void = {
            _ = platform  // read before it is replaced
            _createExecutors(factory: Factory.self)
        }()

        private struct Factory: ExecutorFactory {
            static var mainExecutor: any MainExecutor { MainActor.executor }
            static var defaultExecutor: any TaskExecutor { DefaultExecutorStandIn() }
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            if !Capture.takeGlobal(job) { Self.platform.enqueue(ExecutorJob(job)) }
        }

        var asSchedulingExecutor: (any SchedulingExecutor)? { self }

        func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
            Self.sleep(UnownedJob(job), after: delay, tolerance: tolerance, clock: clock)
        }

        func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
            Self.sleep(UnownedJob(job), at: instant, tolerance: tolerance, clock: clock)
        }

        /// A sleep: the running scenario's on its virtual clock, anyone else's on the real one.
        static func sleep<C: Clock>(_ job: UnownedJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
            guard !Capture.takeSleep(job, for: delay, on: clock) else { return }
            toPlatform(job) { $0.enqueue(ExecutorJob(job), after: delay, tolerance: tolerance, clock: clock) }
        }

        static func sleep<C: Clock>(_ job: UnownedJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
            guard !Capture.takeSleep(job, until: instant, on: clock) else { return }
            toPlatform(job) { $0.enqueue(ExecutorJob(job), at: instant, tolerance: tolerance, clock: clock) }
        }

        /// Hands a sleep that is not a scenario's to the platform's executor, on its real clock.
        private static func toPlatform(_ job: UnownedJob, schedule: (any SchedulingExecutor) -> Void) {
            if let platform = platform as? any SchedulingExecutor {
                schedule(platform)
            } else {
                platform.enqueue(ExecutorJob(job))
            }
        }
    }
#endif
