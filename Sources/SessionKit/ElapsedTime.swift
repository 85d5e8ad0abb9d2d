/// Time elapsed on the injected clock since the stack was built.
///
/// `any Clock<Duration>` hides its instant type, so instants cannot be stored and compared
/// directly; this opens the clock once and turns every reading into a `Duration` since one
/// origin, which can be stored and compared freely.
struct ElapsedTime: Sendable {
    private let read: @Sendable () -> Duration

    /// Starts measuring on `clock` now.
    init(clock: any Clock<Duration>) {
        read = Self.reader(for: clock)
    }

    /// The time since the origin.
    func now() -> Duration { read() }

    private static func reader<C: Clock>(for clock: C) -> @Sendable () -> Duration where C.Duration == Duration {
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }
}
