import Foundation

/// Whose turn it is at the process: scenarios in one process run one after another, since what
/// the capture installs is process-wide (see ``ScenarioTurn``). A run whose stack blocks the
/// scenario's thread for real never gives its turn back; ``lose(_:reason:)`` then ends that run and
/// every later one at once with the reason, instead of leaving them waiting for good.
final class ProcessTurn: @unchecked Sendable {
    /// The process can run no more scenarios.
    struct Lost: Error, CustomStringConvertible {
        var description: String
    }

    private let condition = NSCondition()
    private var taken = false
    private var lostBecause: String?
    /// Ends the run that holds the turn, with a message; set while a run holds it.
    private var endHolder: (@Sendable (String) -> Void)?

    /// Whether a run kept the turn for good (see ``lose(_:reason:)``): this process runs no more scenarios.
    var isLost: Bool { condition.withLock { lostBecause != nil } }

    /// Waits for the turn and takes it; `end` ends the run early (see ``lose(_:reason:)``).
    func take(endingWith end: @escaping @Sendable (String) -> Void) throws(Lost) {
        condition.lock()
        defer { condition.unlock() }
        while taken, lostBecause == nil { condition.wait() }
        if let lostBecause { throw Lost(description: lostBecause) }
        taken = true
        endHolder = end
    }

    /// Gives the turn back.
    func give() {
        condition.withLock {
            taken = false
            endHolder = nil
            condition.signal()
        }
    }

    /// Ends the run holding the turn with `message` and refuses every later one with `reason`:
    /// that run's thread cannot be taken back from the stack, and it holds what scenarios share.
    func lose(_ message: String, reason: String) {
        let end: (@Sendable (String) -> Void)? = condition.withLock {
            lostBecause = reason
            condition.broadcast()
            defer { endHolder = nil }
            return endHolder
        }
        end?(message)
    }
}
