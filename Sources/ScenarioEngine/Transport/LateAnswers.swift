/// How much later than scripted answers go under an explored schedule (given to a run's ``ScriptedBackend``):
/// drawn from the schedule's seed, so a replay draws the same, or as an explicit schedule says.
struct LateAnswers {
    let bound: Duration
    private var random: SplitMix64
    /// An explicit schedule's delays by draw (`nil`: drawn from the seed).
    private let explicit: [ExplicitSchedule.Place: Duration]?
    /// Where the current draw falls: its step, and which of the step's draws it is.
    private var places = StepCounter()
    /// The draws that came late so far, and by how much: what replays them as an explicit schedule.
    private(set) var taken: [ExplicitSchedule.Place: Duration] = [:]

    init(bound: Duration, seed: UInt64) {
        self.bound = bound
        random = SplitMix64(seed: seed)
        explicit = nil
    }

    /// Exactly these delays, each at most `bound` (a scenario's `lateAnswers` still holds).
    init(bound: Duration, explicit: [ExplicitSchedule.Place: Duration]) {
        self.bound = bound
        random = SplitMix64(seed: 0)
        self.explicit = explicit
    }

    /// The run begins step `step`.
    mutating func enterStep(_ step: Int) { places.enter(step) }

    /// Half the time on time, else up to the bound, in whole milliseconds.
    mutating func draw() -> Duration {
        let place = places.next()
        let delay = explicit.map { min($0[place] ?? .zero, bound) } ?? seeded()
        if delay > .zero { taken[place] = delay }
        return delay
    }

    private mutating func seeded() -> Duration {
        let draw = random.next()
        guard draw & 1 == 1 else { return .zero }
        let millis = max(1, bound.components.seconds * 1000 + bound.components.attoseconds / 1_000_000_000_000_000)
        return .milliseconds(Int64((draw >> 1) % UInt64(millis + 1)))
    }
}
