import Foundation

/// Which invariants the traffic alone can judge: what a recorder in an app sees is requests and
/// answers with their wall-clock times, not the app's alerts, timeline or actions.
extension Invariant {
    /// Why this invariant cannot be judged from requests and answers alone, or `nil` when it can.
    /// A recorder that watches live traffic skips these and says so, rather than passing them.
    package var needsTheApp: String? {
        switch rule {
        case .neverSentTwice, .notAfterReplaced, .refreshesOnlyForCurrent, .noneAfter, .maxInFlight, .maxRepeats,
            .respectsRetryAfter:
            nil
        case .reportsRetryAfter:
            "reportsRetryAfter reads the error an action of the app returned, which the traffic does not show"
        case .alertAtMost:
            "alertAtMost counts the alerts the app showed, which the traffic does not show"
        case .repeatsWithinSession:
            "repeatsWithinSession follows a request while the action that sent it still waits, which the traffic does not show"
        case .timeline:
            "timeline reads the app's states, which the traffic does not show"
        }
    }
}

extension InvariantChecker {
    /// The violations of `invariants` in `record` that involve a request numbered `first` or
    /// later: what a checker that sees the record grow learns from its newest requests. Every
    /// traffic check fails at the request that breaks it, and names it, so a violation found once
    /// is not found again when the record only grows.
    package static func check(_ invariants: [Invariant], _ record: RunRecord, involvingRequestsFrom first: Int) -> [InvariantViolation] {
        check(invariants, record).filter { violation in violation.requests.contains { $0 >= first } }
    }
}
