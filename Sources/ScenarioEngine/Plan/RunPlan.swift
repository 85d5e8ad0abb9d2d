/// How scenarios run: the route to the backend, whether secrets show, whether only invariants are
/// checked, and how often and in which orders each scenario runs. One value, checked in one
/// place (``RunPlan/Settings``), for `scenario run`, its worker processes and test bundles, and
/// run by one function (``ScenarioRunner/run(_:)``).
public struct RunPlan: Sendable, Hashable, Codable {
    /// How requests reach the scripted backend.
    public enum Route: String, Sendable, Hashable, CaseIterable, Codable {
        /// The stack gets the scripted transport itself.
        case direct
        /// The stack gets a URLSession whose requests a URLProtocol subclass hands to the backend.
        case urlSession
    }

    /// How often and in which orders each scenario runs.
    public enum Mode: Sendable, Hashable, Codable {
        /// Once, first in, first out.
        case once
        /// This many times; a run that does anything differently from the first fails it.
        case repeated(Int)
        /// First in, first out, then `schedules - 1` orders drawn from `seed`; the first that
        /// fails is reported with the schedule that replays it.
        case explored(schedules: Int, seed: UInt64)
        /// Exactly the schedule a failure printed.
        case replay(JobSchedule)
    }

    /// How requests reach the scripted backend.
    public var route: Route
    /// Show secrets in transcripts and diffs instead of masking them.
    public var revealSecrets: Bool
    /// Check invariants only: the scenario's `expect`, step expectations and its unmatched-request
    /// and unused-exchange checks are left out, and a scenario no invariant governs is skipped.
    public var invariantsOnly: Bool
    /// How often and in which orders each scenario runs.
    public var mode: Mode
    /// Where a shrunk copy of each scenario that fails is written, named after its id
    /// (`run --shrink DIR`, a test bundle's `.scenarios(shrink:)`); `nil`: none is.
    package var shrinkInto: String?

    /// A plan: direct route, secrets masked, everything checked, once.
    public init(route: Route = .direct, revealSecrets: Bool = false, invariantsOnly: Bool = false, mode: Mode = .once) {
        self.route = route
        self.revealSecrets = revealSecrets
        self.invariantsOnly = invariantsOnly
        self.mode = mode
    }

    /// How many schedules a scenario runs under in this plan (1 unless exploring).
    var scheduleCount: Int {
        if case .explored(let count, _) = mode { return count }
        return 1
    }
}

/// The options of one run, as ``RunPlan`` was called before it also said how often each
/// scenario runs.
@available(*, deprecated, renamed: "RunPlan")
public typealias RunOptions = RunPlan
