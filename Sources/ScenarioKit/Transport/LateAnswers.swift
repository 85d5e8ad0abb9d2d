/// How much later than scripted answers go under an explored schedule (``ScriptedBackend/allowLateAnswers(upTo:seed:)``):
/// drawn from the schedule's seed, so a replay draws the same.
struct LateAnswers {
    let bound: Duration
    private var random: SplitMix64

    init(bound: Duration, seed: UInt64) {
        self.bound = bound
        random = SplitMix64(seed: seed)
    }

    /// Half the time on time, else up to the bound, in whole milliseconds.
    mutating func draw() -> Duration {
        let draw = random.next()
        guard draw & 1 == 1 else { return .zero }
        let millis = max(1, bound.components.seconds * 1000 + bound.components.attoseconds / 1_000_000_000_000_000)
        return .milliseconds(Int64((draw >> 1) % UInt64(millis + 1)))
    }
}
