import Foundation

/// Work of one scenario that is away on other threads and will come back to it: requests inside
/// URLSession, and work a driver declares (``DriverContext/outsideWork(_:)``). While any is
/// away, an empty queue does not mean the app is idle, so the runner waits for it.
///
/// A request is away from the moment URLSession asks the protocol whether it can load it (on
/// the caller's thread, so no gap opens) until its answer is picked up by a Swift job enqueued
/// from URLSession's threads. An answer the scripted backend holds is parked: the runner can see
/// it and releases it itself. A request or an answer that never shows up again is given up on
/// after ``grace`` of real time: URLSession sometimes asks twice, and a completion handler may
/// do nothing the scenario can see.
final class OutsideWork: @unchecked Sendable {
    /// How long an announced request or a delivered answer is waited for.
    static let grace: TimeInterval = 1

    private let lock = NSLock()
    private var inFlight: Set<Int> = []
    private var parked: Set<Int> = []
    private var announced: [(key: String, expiry: Date)] = []
    private var deliveries: [Date] = []
    private var declared: [Int: String] = [:]
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

    /// URLSession is about to load a request (asked on the caller's thread).
    func announce(_ key: String) {
        update { announced.append((key, Date(timeIntervalSinceNow: Self.grace))) }
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

    /// The protocol handed the answer to URLSession, which passes it on from its own threads.
    func delivered(_ tag: Int) {
        update {
            inFlight.remove(tag)
            parked.remove(tag)
            deliveries.append(Date(timeIntervalSinceNow: Self.grace))
        }
    }

    /// A job arrived from another thread. Returns whether something outside was expected to come
    /// back; a delivered answer counts as picked up.
    /// The caller holds the lock `changed` takes and signals the runner itself.
    func pickUp() -> Bool {
        lock.withLock {
            if !deliveries.isEmpty {
                deliveries.removeFirst()
                return true
            }
            return !inFlight.subtracting(parked).isEmpty || !announced.isEmpty || !declared.isEmpty
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

    /// When the next announced request or delivered answer is given up on.
    var nextExpiry: Date? {
        lock.withLock { (announced.map(\.expiry) + deliveries).min() }
    }

    /// Gives up on what is overdue; returns whether anything was.
    func expireOverdue() -> Bool {
        let now = Date()
        return lock.withLock {
            let before = announced.count + deliveries.count
            announced.removeAll { $0.expiry <= now }
            deliveries.removeAll { $0 <= now }
            return announced.count + deliveries.count < before
        }
    }

    /// What is away, for a message.
    var summary: String {
        lock.withLock {
            var parts: [String] = []
            let requests = inFlight.subtracting(parked).count
            if requests > 0 { parts.append("\(requests) request(s) inside URLSession") }
            if !declared.isEmpty { parts.append("declared outside work: " + declared.values.sorted().joined(separator: ", ")) }
            return parts.isEmpty ? "nothing" : parts.joined(separator: "; ")
        }
    }

    private func update(_ change: () -> Void) {
        lock.withLock(change)
        changed()
    }
}
