import Foundation

/// Counts sessions across the runs of one test.
package final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    package init() {}

    package func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
    package var value: Int { lock.withLock { count } }
}
