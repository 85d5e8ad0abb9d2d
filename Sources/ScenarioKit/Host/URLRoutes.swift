import Foundation

/// The URLSession route's table: each run's route name to its backend, while the run lasts, and
/// the route that serves requests naming none (`URLSession.shared`, a session the stack built
/// without the routed configuration) while a scenario runs. See ``ScriptedURLProtocol``.
final class URLRoutes: @unchecked Sendable {
    private let lock = NSLock()
    private var backends: [String: ScriptedBackend] = [:]
    private var counter = 0
    private var unroutedTo: String?

    /// Registers `backend` and returns its route; ``remove(_:)`` it when the run ends.
    func add(_ backend: ScriptedBackend) -> String {
        lock.withLock {
            counter += 1
            let route = "run-\(counter)"
            backends[route] = backend
            return route
        }
    }

    func remove(_ route: String) { lock.withLock { backends[route] = nil } }

    func backend(for route: String) -> ScriptedBackend? { lock.withLock { backends[route] } }

    /// Serves requests that name no route from `route` (`nil`: from none).
    func serveUnrouted(_ route: String?) { lock.withLock { unroutedTo = route } }

    /// The route requests that name none go to.
    var unrouted: String? { lock.withLock { unroutedTo } }
}
