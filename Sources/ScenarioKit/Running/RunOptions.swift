/// How the runner wires a scenario to the stack.
public struct RunOptions: Sendable, Hashable {
    /// How requests reach the scripted backend.
    public enum Route: String, Sendable, Hashable, CaseIterable {
        /// The stack gets the scripted transport itself.
        case direct
        /// The stack gets a URLSession whose requests a URLProtocol subclass hands to the backend.
        case urlSession
    }

    /// How requests reach the scripted backend.
    public var route: Route
    /// Show secrets in transcripts and diffs instead of masking them.
    public var revealSecrets: Bool
    /// The order runnable jobs run in (first in, first out unless exploring).
    public var schedule: JobSchedule = .fifo
    /// How many jobs the first-in-first-out run of the scenario took: where an explored
    /// schedule's priority changes may fall.
    public var scheduleLength = 100
    /// Check invariants only: the scenario's `expect`, step expectations and its unmatched-request
    /// and unused-exchange checks are left out (how `scripts/mutants --invariants-only` measures
    /// what invariants alone catch).
    public var invariantsOnly = false

    /// Creates options: direct route, secrets masked.
    public init(route: Route = .direct, revealSecrets: Bool = false) {
        self.route = route
        self.revealSecrets = revealSecrets
    }
}
