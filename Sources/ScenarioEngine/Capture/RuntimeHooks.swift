import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The Swift runtime's enqueue hooks, found by name and set while at least one scenario runs.
///
/// The concurrency runtime consults these variables before it hands a job to the global
/// concurrent executor, to a delayed or deadline queue (`Task.sleep`), and before it answers
/// which executor is the main one. Setting them is how a scenario owns every job the stack
/// makes without the stack naming an executor. The hooks are ABI of the runtime on Linux and
/// Apple platforms alike; `swift-concurrency-extras` sets the first of them the same way.
enum RuntimeHooks {
    typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
    typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void
    typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
    typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
    typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
    typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void
    typealias MainExecutorOriginal = @convention(thin) () -> UnownedSerialExecutor
    typealias MainExecutorHook = @convention(thin) (MainExecutorOriginal) -> UnownedSerialExecutor
    typealias GetTime = @convention(thin) (UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, Int32) -> Void
    typealias EnqueueMain = @convention(thin) (UnownedJob) -> Void
    typealias EnqueueGlobal = @convention(thin) (UnownedJob) -> Void
    typealias GetCurrentTask = @convention(c) () -> UnsafeRawPointer?
    typealias GetJobTaskID = @convention(c) (UnsafeRawPointer) -> UInt64

    /// Pointers to the runtime's variables and functions; `nil` where a runtime lacks one.
    private struct Symbols: @unchecked Sendable {
        let global: UnsafeMutablePointer<EnqueueHook?>
        let delay: UnsafeMutablePointer<DelayHook?>
        let deadline: UnsafeMutablePointer<DeadlineHook?>
        let mainExecutor: UnsafeMutablePointer<MainExecutorHook?>
        let mainEnqueue: UnsafeMutablePointer<EnqueueHook?>
        let getTime: GetTime
        let enqueueMain: EnqueueMain
        let enqueueGlobal: EnqueueGlobal
        let getCurrentTask: GetCurrentTask
    }

    private static let symbols: Symbols? = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        func find(_ name: String) -> UnsafeMutableRawPointer? { dlsym(handle, name) }
        guard let global = find("swift_task_enqueueGlobal_hook"),
            let delay = find("swift_task_enqueueGlobalWithDelay_hook"),
            let deadline = find("swift_task_enqueueGlobalWithDeadline_hook"),
            let mainExecutor = find("swift_task_getMainExecutor_hook"),
            let mainEnqueue = find("swift_task_enqueueMainExecutor_hook"),
            let getTime = find("swift_get_time"),
            let enqueueMain = find("swift_task_enqueueMainExecutor"),
            let enqueueGlobal = find("swift_task_enqueueGlobal"),
            let getCurrentTask = find("swift_task_getCurrent")
        else { return nil }
        return Symbols(
            global: global.assumingMemoryBound(to: EnqueueHook?.self),
            delay: delay.assumingMemoryBound(to: DelayHook?.self),
            deadline: deadline.assumingMemoryBound(to: DeadlineHook?.self),
            mainExecutor: mainExecutor.assumingMemoryBound(to: MainExecutorHook?.self),
            mainEnqueue: mainEnqueue.assumingMemoryBound(to: EnqueueHook?.self),
            getTime: unsafeBitCast(getTime, to: GetTime.self),
            enqueueMain: unsafeBitCast(enqueueMain, to: EnqueueMain.self),
            enqueueGlobal: unsafeBitCast(enqueueGlobal, to: EnqueueGlobal.self),
            getCurrentTask: unsafeBitCast(getCurrentTask, to: GetCurrentTask.self))
    }()

    private static let getJobTaskID: GetJobTaskID? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_task_getJobTaskId") else { return nil }
        return unsafeBitCast(symbol, to: GetJobTaskID.self)
    }()

    /// The id of the task a job runs (never reused in a process), or 0 for a job of no task.
    static func taskID(of job: UnownedJob) -> UInt64 { taskID(of: unsafeBitCast(job, to: UnsafeRawPointer.self)) }

    /// The id of the task a job at `address` runs (a task is a job), or 0 for a job of no task.
    static func taskID(of address: UnsafeRawPointer) -> UInt64 { getJobTaskID?(address) ?? 0 }

    /// Whether this runtime has every hook the capture needs.
    static var available: Bool { symbols != nil }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var users = 0

    /// Sets the hooks (the first user does); each call needs one ``remove()``.
    static func install() throws(CaptureUnavailable) {
        guard let symbols else { throw CaptureUnavailable() }
        lock.withLock {
            users += 1
            guard users == 1 else { return }
            #if compiler(>=6.3) && !canImport(Darwin)
                if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
                    DefaultExecutorStandIn.install
                }
            #endif
            symbols.global.pointee = { job, original in
                if !Capture.takeGlobal(job) { original(job) }
            }
            symbols.delay.pointee = { nanoseconds, job, original in
                if !Capture.takeTimed(job, after: .nanoseconds(Int64(clamping: nanoseconds))) { original(nanoseconds, job) }
            }
            symbols.deadline.pointee = { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clockID, job, original in
                let remaining = RuntimeHooks.remaining(untilSeconds: seconds, nanoseconds: nanoseconds, clockID: clockID)
                if !Capture.takeDeadline(job, remaining: remaining) {
                    original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clockID, job)
                }
            }
            // Runtimes that send main-actor jobs straight to the main queue go through this one.
            symbols.mainEnqueue.pointee = { job, original in
                if !Capture.takeMain(job) { original(job) }
            }
            symbols.mainExecutor.pointee = { _ in MainActorStandIn.shared.asUnownedSerialExecutor() }
        }
    }

    /// Clears the hooks once the last user is gone.
    static func remove() {
        guard let symbols else { return }
        lock.withLock {
            users -= 1
            guard users == 0 else { return }
            symbols.mainExecutor.pointee = nil
            symbols.mainEnqueue.pointee = nil
            symbols.deadline.pointee = nil
            symbols.delay.pointee = nil
            symbols.global.pointee = nil
        }
    }

    /// Hands a job to the real main executor (the main thread's queue).
    static func enqueueOnRealMain(_ job: UnownedJob) {
        symbols?.enqueueMain(job)
    }

    /// Hands a job to the runtime's global concurrent executor (through the hooks, which pass it on).
    static func enqueueOnGlobal(_ job: UnownedJob) {
        symbols?.enqueueGlobal(job)
    }

    /// The task running on this thread, by address: a task is the job that resumes it.
    static var currentTask: UnsafeRawPointer? { symbols?.getCurrentTask() }

    /// How far a deadline on one of the runtime's clocks is from now.
    private static func remaining(untilSeconds seconds: Int64, nanoseconds: Int64, clockID: Int32) -> Duration {
        var nowSeconds: Int64 = 0
        var nowNanoseconds: Int64 = 0
        symbols?.getTime(&nowSeconds, &nowNanoseconds, clockID)
        return .seconds(seconds &- nowSeconds) + .nanoseconds(nanoseconds - nowNanoseconds)
    }
}

/// This runtime lacks the hooks the capture needs.
struct CaptureUnavailable: Error, CustomStringConvertible {
    var description: String {
        "this Swift runtime does not export the concurrency hooks scenarios need (swift_task_enqueueGlobal_hook and friends)"
    }
}
