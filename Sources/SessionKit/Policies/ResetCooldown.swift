/// The client-side pause between two password-reset requests, measured on the injected
/// clock. Pure: the owner passes the time in.
public struct ResetCooldown: Sendable, Hashable {
    /// How long the pause lasts.
    public let length: Duration
    /// When the last request was sent (time since the stack's origin).
    public private(set) var lastRequest: Duration?

    /// Creates a cooldown that has never started.
    public init(length: Duration) {
        self.length = length
    }

    /// The time left at `now`; zero when none.
    public func remaining(at now: Duration) -> Duration {
        guard let lastRequest else { return .zero }
        let left = lastRequest + length - now
        return left > .zero ? left : .zero
    }

    /// A request was sent at `now`.
    public mutating func recordRequest(at now: Duration) {
        lastRequest = now
    }

    /// Whole seconds, rounded up, so "0.2 s left" never reads as "0 seconds".
    public static func wholeSecondsRoundedUp(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
