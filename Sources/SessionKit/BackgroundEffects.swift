/// The only way the stack starts work that outlives a call: the health polling loop and the
/// verification countdown.
///
/// Every such task is pinned to the injected executor (the global one when `nil`), so a
/// scenario engine running the stack on its own single-threaded executor sees every job and
/// can tell when the app is idle. Callers keep the returned handle to cancel the work.
struct BackgroundEffects: Sendable {
    /// The executor the effects prefer; `nil` means the global concurrent executor.
    let executor: (any TaskExecutor)?

    /// Starts `operation` as a cancellable background task.
    func start(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: executor) {
            await operation()
        }
    }
}
