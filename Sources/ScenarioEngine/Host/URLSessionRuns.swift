import Foundation

/// The URLSession route's table of runs: each run's key (`run-3`) to its backend, while the run
/// lasts, and the run that serves requests naming none (`URLSession.shared`, a session the stack
/// built without the routed configuration) while a scenario runs. See ``ScriptedURLProtocol``.
///
/// Each live run also holds a slot, the lowest free one from 1, which names its
/// configurations' protocol class: a process makes as many classes as runs it holds at once,
/// not one per run it ever ran (a class is never freed).
final class URLSessionRuns: @unchecked Sendable {
    private let lock = NSLock()
    private var backends: [String: ScriptedBackend] = [:]
    /// The run holding each slot, slot 1 first; `nil` where the slot is free.
    private var slots: [String?] = []
    private var counter = 0
    private var unroutedTo: String?

    /// Registers `backend` and returns its run key; ``remove(_:)`` it when the run ends.
    func add(_ backend: ScriptedBackend) -> String {
        lock.withLock {
            counter += 1
            let run = "run-\(counter)"
            backends[run] = backend
            if let free = slots.firstIndex(of: nil) { slots[free] = run } else { slots.append(run) }
            return run
        }
    }

    func remove(_ run: String) {
        lock.withLock {
            backends[run] = nil
            if let slot = slots.firstIndex(of: run) { slots[slot] = nil }
        }
    }

    func backend(for run: String) -> ScriptedBackend? { lock.withLock { backends[run] } }

    /// The slot `run` holds, while it is live.
    func slot(of run: String) -> Int? { lock.withLock { slots.firstIndex(of: run).map { $0 + 1 } } }

    /// The run holding `slot`, if any.
    func run(inSlot slot: Int) -> String? { lock.withLock { slots.indices.contains(slot - 1) ? slots[slot - 1] : nil } }

    /// Serves requests that name no run from `run` (`nil`: from none).
    func serveUnrouted(_ run: String?) { lock.withLock { unroutedTo = run } }

    /// The run requests that name none go to.
    var unrouted: String? { lock.withLock { unroutedTo } }
}
