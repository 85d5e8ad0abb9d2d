import Foundation

/// A `Clock` whose time moves only when the scenario runner says so.
///
/// Sleepers are kept in a list and woken in deadline order (ties in the order they began to
/// sleep), so an hour of app time takes as long as the work done in it. Timers the scripted
/// backend sets (latency) live on the same list.
public final class VirtualClock: Clock, @unchecked Sendable {
    /// A point in virtual time: the duration since the clock started.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// Time since the clock started.
        public var offset: Duration

        /// Creates an instant at an offset from the start.
        package init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Orders instants by offset.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        /// The offset as seconds with millisecond precision, such as `15.250s`.
        public var description: String { Self.format(offset) }

        /// Seconds with millisecond precision, such as `15.250s`.
        static func format(_ duration: Duration) -> String {
            let millis = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
            return Duration.formatSeconds(milliseconds: millis) + "s"
        }
    }

    private enum Wake {
        case task(CheckedContinuation<Void, any Error>)
        case timer(@Sendable () -> Void)
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var label: String
        var wake: Wake
    }

    private let lock = NSLock()
    // The state below is the lock's (or the runner thread's alone): `@exclusivity(unchecked)`
    // spares the dynamic check of every access, a tenth of the engine's time per exchange; the
    // thread sanitizer's pass in CI still watches it.
    @exclusivity(unchecked) private var current = Instant(offset: .zero)
    @exclusivity(unchecked) private var sleepers: [Sleeper] = []
    private var cancelledBeforeSleeping: Set<UInt64> = []
    /// Its run is over (see ``end()``).
    private var ended = false
    private var nextID: UInt64 = 0
    /// The wall-clock date that offset zero stands for.
    let start: Date

    /// Creates a clock at offset zero, standing for `start` on the wall clock.
    public init(start: Date) { self.start = start }

    /// The current virtual instant.
    public var now: Instant { lock.withLock { current } }

    /// One nanosecond: the clock never rounds.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Wall-clock date for the current instant: the start date plus elapsed virtual time.
    public var date: Date {
        let offset = now.offset.components
        return start.addingTimeInterval(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
    }

    /// Suspends until the runner moves time to `deadline`. Throws `CancellationError` when the
    /// task is cancelled first, and at the end of a run, so background loops unwind.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        if lock.withLock({ ended }) {
            // A stack that keeps the clock of the run it was first made in (a dependency prepared
            // once per process) would otherwise wait here for good, unseen by the run it is in.
            Capture.currentScheduler?.noteEscape(
                "the stack slept on the virtual clock of a scenario run that has ended: it keeps a clock from an earlier run (a dependency prepared once per process?); hand it each run's context.clock"
            )
            throw CancellationError()
        }
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let wakeNow: Bool? = lock.withLock {
                    // Ended meanwhile (on another thread): no one would wake this sleeper.
                    if cancelledBeforeSleeping.remove(id) != nil || ended { return false }
                    if deadline <= current { return true }
                    sleepers.append(Sleeper(id: id, deadline: deadline, label: "sleep until \(deadline)", wake: .task(continuation)))
                    return nil
                }
                switch wakeNow {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let removed: Sleeper? = lock.withLock {
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else {
                    cancelledBeforeSleeping.insert(id)
                    return nil
                }
                return sleepers.remove(at: index)
            }
            if case .task(let continuation)? = removed?.wake {
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    // MARK: - For the runner and the scripted backend

    /// Calls `action` when time reaches `deadline` (at once if it already has). Returns what
    /// ``cancelTimer(_:)`` takes, or `nil` when it ran at once.
    @discardableResult
    package func schedule(at deadline: Instant, label: String, _ action: @escaping @Sendable () -> Void) -> UInt64? {
        let id: UInt64? = lock.withLock {
            guard deadline > current else { return nil }
            nextID += 1
            sleepers.append(Sleeper(id: nextID, deadline: deadline, label: label, wake: .timer(action)))
            return nextID
        }
        if id == nil { action() }
        return id
    }

    /// Drops a timer ``schedule(at:label:_:)`` set that is no longer needed, so time never moves to it.
    package func cancelTimer(_ id: UInt64) {
        lock.withLock { sleepers.removeAll { $0.id == id } }
    }

    /// The earliest deadline anything waits for.
    package var nextDeadline: Instant? {
        lock.withLock { sleepers.map(\.deadline).min() }
    }

    /// How many sleepers and timers are waiting.
    package var waitingCount: Int { lock.withLock { sleepers.count } }

    /// Moves time to `instant` (never backwards) and wakes what is due by then, in deadline
    /// order. Returns how many woke. The runner drains the executor between distinct deadlines.
    package func wakeDue(movingTo instant: Instant) -> Int {
        let due: [Sleeper] = lock.withLock {
            if instant > current { current = instant }
            let ready = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            // Stable: equal deadlines keep the order they began to wait in.
            return ready.enumerated().sorted { ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset) }.map(\.element)
        }
        for sleeper in due { Self.fire(sleeper.wake) }
        return due.count
    }

    /// Ends the clock with its run: every sleeper and timer goes (``cancelAll()``), and a sleep
    /// begun later fails at once and tells the running scenario why.
    package func end() {
        lock.withLock { ended = true }
        cancelAll()
    }

    /// Wakes every sleeper with `CancellationError` and drops every timer; used when a run ends.
    package func cancelAll() {
        let all: [Sleeper] = lock.withLock {
            defer { sleepers.removeAll() }
            return sleepers
        }
        for sleeper in all {
            if case .task(let continuation) = sleeper.wake { continuation.resume(throwing: CancellationError()) }
        }
    }

    /// What is waiting, for a stuck scenario's message.
    package var waitingDescriptions: [String] {
        lock.withLock { sleepers.sorted { $0.deadline < $1.deadline }.map(\.label) }
    }

    private static func fire(_ wake: Wake) {
        switch wake {
        case .task(let continuation): continuation.resume()
        case .timer(let action): action()
        }
    }
}
