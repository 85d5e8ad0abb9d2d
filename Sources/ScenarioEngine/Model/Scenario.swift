import Foundation

/// One scenario file, loaded and checked: the scripted backend, the steps, the expectations.
public struct Scenario: Sendable {
    /// A stable id: the file's path below the folder it was found in, without `.json`.
    public var id: String
    /// The human-readable name (a JUnit test case name).
    public var name: String
    /// What the scenario protects, in a sentence or two.
    package var description: String
    /// Tags for filtering.
    public var tags: [String]
    /// The file it was loaded from.
    public var file: String
    /// Where the document starts (for reports that point at the scenario itself).
    package var location: ScenarioLocation
    /// The initial condition handed to the driver (everything under `given` but `clock`).
    package var given: JSONValue
    /// The wall-clock instant virtual time starts at.
    package var clockStart: Date
    /// The scripted backend.
    package var exchanges: [Exchange]
    /// What the app and the user do, in order.
    package var steps: [Step]
    /// What must hold when the steps are done.
    package var expect: Expectations
    /// Checks the scenario switches off.
    package var relax: Relaxations
    /// The most virtual time a scenario may spend waiting before it is declared stuck.
    package var timeLimit: Duration
    /// How much work a run may do before it is stopped: every run ends, and says which limit it met.
    package var limits = Limits()
    /// How much later than scripted an explored schedule may deliver an answer while other
    /// requests are in flight; zero pins the scripted order.
    package var lateAnswers: Duration = Scenario.defaultLateAnswers
    /// Half a second: later than most scripted latencies, so answers in flight together can
    /// swap places under `--schedules`.
    package static let defaultLateAnswers = Duration.milliseconds(500)
    /// Extra member, query and form names whose values are secrets in this scenario (`secrets`).
    package var secretKeys: [String] = []
    /// The invariants every run of this scenario is checked against: those of the invariant
    /// files that govern it, less the ones it switches off, plus its own.
    package var invariants: [Invariant] = []
    /// Inherited invariants this scenario switches off, by id, with the reason.
    package var invariantsOff: [String: String] = [:]

    /// Creates a scenario.
    package init(
        id: String, name: String, description: String, tags: [String] = [], file: String,
        location: ScenarioLocation, given: JSONValue = .object([:]), clockStart: Date = Scenario.defaultClockStart,
        exchanges: [Exchange] = [], steps: [Step] = [], expect: Expectations = Expectations(),
        relax: Relaxations = Relaxations(), timeLimit: Duration = Scenario.defaultTimeLimit
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.tags = tags
        self.file = file
        self.location = location
        self.given = given
        self.clockStart = clockStart
        self.exchanges = exchanges
        self.steps = steps
        self.expect = expect
        self.relax = relax
        self.timeLimit = timeLimit
    }

    /// 2026-01-01T00:00:00Z: virtual time's default origin, fixed so runs repeat.
    package static let defaultClockStart = Date(timeIntervalSince1970: 1_767_225_600)

    /// Seconds since 1970 a `given.clock.start` may name: 1900-01-01 to 2199-12-31. The runner
    /// keeps the wall clock in nanoseconds since 1970 (an `Int64`, 1677 to 2262): a start in this
    /// range leaves room for decades of `advance`, and past 2262 the clock stays at its end.
    package static let clockStartRange: ClosedRange<Double> = -2_208_988_800...7_258_118_399
    /// 24 hours of virtual time.
    package static let defaultTimeLimit: Duration = .seconds(24 * 3600)
}

/// Bounds on the work of one run, so a scenario built to run forever fails quickly, naming the
/// limit and how to raise it.
package struct Limits: Sendable, Hashable {
    /// Wakes of the virtual clock one step may cause (an `advance` over a ticking timer wakes it
    /// once per tick).
    package var wakes: Int
    /// Jobs the app may run between two pauses (waits on the clock or the network).
    package var jobs: Int

    /// The defaults: 100,000 wakes a step, 1,000,000 jobs without a pause.
    package init(wakes: Int = 100_000, jobs: Int = 1_000_000) {
        self.wakes = wakes
        self.jobs = jobs
    }
}

/// Checks a scenario may switch off explicitly.
package struct Relaxations: Sendable, Hashable {
    /// Requests no exchange matches get a 404 instead of failing the scenario.
    package var unmatchedRequests: Bool
    /// Exchanges left with uses to spare do not fail the scenario.
    package var unusedExchanges: Bool

    /// Creates relaxations; both checks are on by default.
    package init(unmatchedRequests: Bool = false, unusedExchanges: Bool = false) {
        self.unmatchedRequests = unmatchedRequests
        self.unusedExchanges = unusedExchanges
    }
}
