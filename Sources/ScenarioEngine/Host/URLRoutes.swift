import Foundation

/// The URLSession route's table: each run's route name to its backend, while the run lasts, and
/// the route that serves requests naming none (`URLSession.shared`, a session the stack built
/// without the routed configuration) while a scenario runs. See ``ScriptedURLProtocol``.
///
/// Each live route also holds a slot, the lowest free one from 1, which names its
/// configurations' protocol class: a process makes as many classes as runs it holds at once,
/// not one per run it ever ran (a class is never freed).
final class URLRoutes: @unchecked Sendable {
    private let lock = NSLock()
    private var backends: [String: ScriptedBackend] = [:]
    /// The route holding each slot, slot 1 first; `nil` where the slot is free.
    private var slots: [String?] = []
    private var counter = 0
    private var unroutedTo: String?

    /// Registers `backend` and returns its route; ``remove(_:)`` it when the run ends.
    func add(_ backend: ScriptedBackend) -> String {
        lock.withLock {
            counter += 1
            let route = "run-\(counter)"
            backends[route] = backend
            if let free = slots.firstIndex(of: nil) { slots[free] = route } else { slots.append(route) }
            return route
        }
    }

    func remove(_ route: String) {
        lock.withLock {
            backends[route] = nil
            if let slot = slots.firstIndex(of: route) { slots[slot] = nil }
        }
    }

    func backend(for route: String) -> ScriptedBackend? { lock.withLock { backends[route] } }

    /// The slot `route` holds, while it is live.
    func slot(of route: String) -> Int? { lock.withLock { slots.firstIndex(of: route).map { $0 + 1 } } }

    /// The route holding `slot`, if any.
    func route(inSlot slot: Int) -> String? { lock.withLock { slots.indices.contains(slot - 1) ? slots[slot - 1] : nil } }

    /// Serves requests that name no route from `route` (`nil`: from none).
    func serveUnrouted(_ route: String?) { lock.withLock { unroutedTo = route } }

    /// The route requests that name none go to.
    var unrouted: String? { lock.withLock { unroutedTo } }
}
