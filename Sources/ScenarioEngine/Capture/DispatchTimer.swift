import CRuntimeHooks
import Foundation

/// A Dispatch timer source of a scenario, ticking on the virtual clock.
final class DispatchTimer: @unchecked Sendable {
    let source: DispatchCapture.Object
    let queue: DispatchCapture.Object
    let scheduler: ScenarioScheduler
    private let lock = NSLock()
    private var handler: UnsafeMutableRawPointer?
    private var start: Duration?
    private var interval: Duration?
    private var suspensions = 1
    private var cancelled = false
    /// Bumped whenever the timer is set again, suspended or cancelled: older ticks do nothing.
    private var generation = 0

    init?(source: DispatchCapture.Object, queue: DispatchCapture.Object?, scheduler: ScenarioScheduler) {
        guard let queue = queue ?? ssdc_default_queue() else { return nil }
        self.source = source
        self.queue = queue
        self.scheduler = scheduler
    }

    func setHandler(_ block: UnsafeMutableRawPointer?) {
        let copy = block.flatMap(ssdc_block_copy)
        let old = lock.withLock { () -> UnsafeMutableRawPointer? in
            defer { handler = copy }
            return handler
        }
        if let old { ssdc_block_release(old) }
    }

    func set(start: Duration, interval: Duration?) {
        lock.withLock {
            self.start = start
            self.interval = interval
            generation += 1
        }
        arm()
    }

    func resume() {
        lock.withLock { suspensions = max(0, suspensions - 1) }
        arm()
    }

    func suspend() {
        lock.withLock {
            suspensions += 1
            generation += 1
        }
    }

    func cancel() {
        let old = lock.withLock { () -> UnsafeMutableRawPointer? in
            cancelled = true
            generation += 1
            defer { handler = nil }
            return handler
        }
        if let old { ssdc_block_release(old) }
    }

    /// Puts the next tick on the clock when the timer is set, running and not yet armed.
    private func arm() {
        let due: (Duration, Int)? = lock.withLock {
            guard !cancelled, suspensions == 0, let start else { return nil }
            self.start = nil
            return (start, generation)
        }
        guard let (delay, generation) = due else { return }
        tick(after: delay, generation: generation)
    }

    private func tick(after delay: Duration, generation: Int) {
        let label = DispatchWork.label(of: queue)
        scheduler.clock.schedule(at: scheduler.clock.now.advanced(by: delay), label: "Dispatch timer on \(label)") { [self] in
            let fire: (UnsafeMutableRawPointer, Duration?)? = lock.withLock {
                guard generation == self.generation, !cancelled, suspensions == 0, let handler else { return nil }
                return (handler, interval)
            }
            guard let (handler, interval) = fire else { return }
            scheduler.enqueue(DispatchWork(queue: queue, block: handler, group: nil), foreign: false)
            if let interval { tick(after: max(interval, .nanoseconds(1)), generation: generation) }
        }
    }

    deinit {
        if let handler { ssdc_block_release(handler) }
    }
}
