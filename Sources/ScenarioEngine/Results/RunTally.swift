/// How many scenarios ended each way and how long the run took: what a summary and an exit
/// status need, kept apart from the results so that a long run need not hold them all.
package struct RunTally: Sendable, Hashable {
    /// Scenarios that passed.
    package var passed = 0
    /// Scenarios that failed.
    package var failed = 0
    /// Scenarios that could not load or finish.
    package var errors = 0
    /// Scenarios left out or not run.
    package var skipped = 0
    /// Wall time the whole run took.
    package var wallTime: Duration

    /// Creates a tally of nothing yet.
    package init(wallTime: Duration = .zero) { self.wallTime = wallTime }

    /// Counts one more result.
    package mutating func add(_ status: ScenarioResult.Status) {
        switch status {
        case .passed: passed += 1
        case .failed: failed += 1
        case .error: errors += 1
        case .skipped: skipped += 1
        }
    }

    /// How many scenarios ended with this status.
    package func count(_ status: ScenarioResult.Status) -> Int {
        switch status {
        case .passed: passed
        case .failed: failed
        case .error: errors
        case .skipped: skipped
        }
    }

    /// Every scenario counted.
    package var total: Int { passed + failed + errors + skipped }

    /// Whether nothing failed or errored.
    package var succeeded: Bool { failed == 0 && errors == 0 }
}
