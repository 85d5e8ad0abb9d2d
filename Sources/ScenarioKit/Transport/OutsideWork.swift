import Foundation

/// Requests that left the simulation executor for URLSession's own threads, tracked one by
/// one, so the runner knows when the app is idle on the URLSession route.
///
/// A request is pending while it is in flight and not parked: parked means the scripted
/// backend holds its answer (a release condition or virtual latency), which the runner can see.
/// Tracking requests rather than counting events keeps the figure right when a caller cancels
/// a request whose answer is parked.
final class OutsideWork: @unchecked Sendable {
    private let lock = NSLock()
    private var inFlight: Set<Int> = []
    private var parked: Set<Int> = []
    private var lastTag = 0
    private let changed: @Sendable () -> Void

    /// Creates a tracker that calls `changed` (never under its lock) after every change.
    init(changed: @escaping @Sendable () -> Void) { self.changed = changed }

    /// A request leaves for URLSession; returns the tag that names it in the backend.
    func begin() -> Int {
        let tag = lock.withLock {
            lastTag += 1
            inFlight.insert(lastTag)
            return lastTag
        }
        changed()
        return tag
    }

    /// The request's answer is back with its caller (or the caller gave up).
    func end(_ tag: Int) {
        update {
            inFlight.remove(tag)
            parked.remove(tag)
        }
    }

    /// The backend holds the request's answer.
    func park(_ tag: Int) { update { parked.insert(tag) } }

    /// The backend lets the request's answer go.
    func unpark(_ tag: Int) { update { parked.remove(tag) } }

    /// Requests in flight whose answers are not parked.
    var pending: Int { lock.withLock { inFlight.subtracting(parked).count } }

    private func update(_ change: () -> Void) {
        lock.withLock(change)
        changed()
    }
}
