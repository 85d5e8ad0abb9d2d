import Foundation

/// Carries a value out of a task run on the simulation executor.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    var value: T? { lock.withLock { stored } }
    func set(_ value: T) { lock.withLock { stored = value } }

    /// Stores `value` unless one is there; returns whether it did.
    func setOnce(_ value: T) -> Bool {
        lock.withLock {
            guard stored == nil else { return false }
            stored = value
            return true
        }
    }
}
