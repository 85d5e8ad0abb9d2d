import Foundation

/// Work of one scenario that is away on other threads and will come back to it: requests inside
/// URLSession, and work a driver declares (``DriverContext/outsideWork(_:)``). While any is
/// away, an empty queue does not mean the app is idle, so the runner waits for it.
///
/// A request is away from the moment URLSession asks the protocol whether it can load it (on
/// the caller's thread, so no gap opens) until URLSession has handed its answer on. Where the
/// URLSession task can be watched (FoundationNetworking sets a task's state to completed only
/// after its completion handler or delegate returned), an answer is back exactly when its task
/// completes. Elsewhere an answer counts as back when a Swift job arrives from URLSession's
/// threads, and is given up on after ``grace`` of real time, as is an announced request that
/// never starts: URLSession sometimes asks twice, and a handler may do nothing the scenario sees.
/// An answer the scripted backend holds is parked: the runner can see it and releases it itself.
final class OutsideWork: @unchecked Sendable {
    /// How long an announced request, or a delivered answer that cannot be watched, is waited for.
    static let grace: TimeInterval = 1
    /// How often a watched answer is looked at while the runner has nothing else to do.
    static let watchInterval: TimeInterval = 0.000_2

    /// An answer URLSession is passing on.
    private struct Delivery {
        let id: Int
        /// Whether URLSession is done with it; `nil` where that cannot be seen.
        let isHandedOn: (@Sendable () -> Bool)?
        /// When it is given up on, where it cannot be watched (Dispatch's clock is real on every
        /// thread; a runner's `Date()` is its scenario's).
        let expiry: DispatchTime
    }

    private let lock = NSLock()
    // The state below is the lock's (or the runner thread's alone): `@exclusivity(unchecked)`
    // spares the dynamic check of every access, a tenth of the engine's time per exchange; the
    // thread sanitizer's pass in CI still watches it.
    @exclusivity(unchecked) private var inFlight: Set<Int> = []
    @exclusivity(unchecked) private var parked: Set<Int> = []
    /// Requests of the scenario's own transport whose answers URLSession is passing on.
    @exclusivity(unchecked) private var passing: Set<Int> = []
    /// Requests that reached the scripted backend.
    @exclusivity(unchecked) private var arrivedAtBackend: Set<Int> = []
    @exclusivity(unchecked) private var announced: [(key: String, expiry: DispatchTime)] = []
    @exclusivity(unchecked) private var deliveries: [Delivery] = []
    @exclusivity(unchecked) private var declared: [Int: String] = [:]
    @exclusivity(unchecked) private var lastTag = 0
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
            passing.remove(tag)
            arrivedAtBackend.remove(tag)
        }
    }

    /// The request reached the scripted backend.
    func arrived(_ tag: Int) { update { arrivedAtBackend.insert(tag) } }

    /// The answer to a request of the scenario's own transport is on its way through URLSession
    /// to the task awaiting it, which ``end(_:)`` says it reached.
    func passingOn(_ tag: Int) { update { passing.insert(tag) } }

    /// Whether URLSession is passing a request to the backend or an answer to the stack. Where it
    /// does that on threads of its own (capture of Swift concurrency only), the next answer waits
    /// until both have arrived, so requests and answers meet the backend and the stack one at a
    /// time, in the same order on every run.
    var isPassingOn: Bool {
        lock.withLock { !passing.isEmpty || !deliveries.isEmpty || !announced.isEmpty || !inFlight.isSubset(of: arrivedAtBackend) }
    }

    /// URLSession is about to load a request (asked on the caller's thread).
    func announce(_ key: String) {
        update { announced.append((key, .now() + Self.grace)) }
    }

    /// A request URLSession announced is under way and tracked by its sender.
    func forget(_ key: String) { update { removeAnnouncement(key) } }

    /// One announcement per request: requests with the same method and URL may be in flight at once.
    private func removeAnnouncement(_ key: String) {
        if let index = announced.firstIndex(where: { $0.key == key }) { announced.remove(at: index) }
    }

    /// The protocol starts loading an announced request; returns its tag.
    func beginLoad(_ key: String) -> Int {
        let tag = begin()
        update { removeAnnouncement(key) }
        return tag
    }

    /// The protocol is about to hand the answer to URLSession, which passes it on, inline or from
    /// its own threads. `isHandedOn` says when it has, where that can be seen.
    func delivered(_ tag: Int, isHandedOn: (@Sendable () -> Bool)?) {
        update {
            inFlight.remove(tag)
            parked.remove(tag)
            arrivedAtBackend.remove(tag)
            lastTag += 1
            deliveries.append(Delivery(id: lastTag, isHandedOn: isHandedOn, expiry: .now() + Self.grace))
        }
    }

    /// A job arrived from another thread. Returns whether something outside was expected to come
    /// back; an answer that cannot be watched counts as picked up. (Watched answers are not
    /// counted off: two resumes onto one actor arrive as one job.)
    /// The caller holds the lock `changed` takes and signals the runner itself.
    func pickUp() -> Bool {
        lock.withLock {
            if let unwatched = deliveries.firstIndex(where: { $0.isHandedOn == nil }) {
                deliveries.remove(at: unwatched)
                return true
            }
            return !deliveries.isEmpty || !inFlight.subtracting(parked).isEmpty || !announced.isEmpty || !declared.isEmpty
        }
    }

    /// Work a driver declares; returns its id for ``finish(_:)``.
    func declare(_ label: String) -> Int {
        let id = lock.withLock {
            lastTag += 1
            declared[lastTag] = label
            return lastTag
        }
        changed()
        return id
    }

    /// Whether declared work is away.
    var hasDeclaredWork: Bool { lock.withLock { !declared.isEmpty } }

    /// Declared work is done.
    func finish(_ id: Int) { update { declared[id] = nil } }

    /// The backend holds the request's answer.
    func park(_ tag: Int) { update { parked.insert(tag) } }

    /// The backend lets the request's answer go.
    func unpark(_ tag: Int) { update { parked.remove(tag) } }

    /// Whether anything is away that will come back by itself.
    var isAway: Bool {
        lock.withLock { !inFlight.subtracting(parked).isEmpty || !announced.isEmpty || !deliveries.isEmpty || !declared.isEmpty }
    }

    /// When the runner should look again: the next watch of an answer, or the next give-up.
    var nextCheck: DispatchTime? {
        lock.withLock {
            if deliveries.contains(where: { $0.isHandedOn != nil }) { return .now() + Self.watchInterval }
            return (announced.map(\.expiry) + deliveries.map(\.expiry)).min()
        }
    }

    /// Drops answers URLSession has handed on and gives up on what is overdue; returns whether
    /// anything changed.
    func settleDeliveries() -> Bool {
        let now = DispatchTime.now()
        // Probes run outside the lock: asking URLSession may run work of the scenario's.
        let watched = lock.withLock { deliveries.compactMap { delivery in delivery.isHandedOn.map { (delivery.id, $0) } } }
        let handedOn = Set(watched.filter { $0.1() }.map(\.0))
        return lock.withLock {
            let before = announced.count + deliveries.count
            announced.removeAll { $0.expiry <= now }
            deliveries.removeAll { handedOn.contains($0.id) || ($0.isHandedOn == nil && $0.expiry <= now) }
            return announced.count + deliveries.count < before
        }
    }

    /// What is away, for a message.
    var summary: String {
        lock.withLock {
            var parts: [String] = []
            let requests = inFlight.subtracting(parked).count
            if requests > 0 { parts.append("\(requests) request(s) inside URLSession") }
            let handlers = deliveries.filter { $0.isHandedOn != nil }.count
            if handlers > 0 { parts.append("\(handlers) answer(s) in a URLSession completion handler or delegate that has not returned") }
            if !declared.isEmpty { parts.append("declared outside work: " + declared.values.sorted().joined(separator: ", ")) }
            return parts.isEmpty ? "nothing" : parts.joined(separator: "; ")
        }
    }

    private func update(_ change: () -> Void) {
        lock.withLock(change)
        changed()
    }
}
