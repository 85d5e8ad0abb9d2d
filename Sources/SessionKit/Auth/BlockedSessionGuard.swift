/// Makes the blocked-account handling happen once per session, however many 403s arrive.
///
/// Pure state machine: ``forbiddenReceived()`` says whether this 403 is the one to handle.
public struct BlockedSessionGuard: Sendable, Hashable {
    /// What to do with a 403.
    public enum Action: Sendable, Hashable {
        /// The first 403 of the session: log out, wipe, alert.
        case handleBlock
        /// Already handled in this session.
        case ignore
    }

    /// Whether the next 403 will be handled.
    public private(set) var isArmed = true

    /// Creates an armed guard.
    public init() {}

    /// A 403 arrived.
    public mutating func forbiddenReceived() -> Action {
        guard isArmed else { return .ignore }
        isArmed = false
        return .handleBlock
    }

    /// A new session started (or a test resets): the next 403 is handled again.
    public mutating func rearm() {
        isArmed = true
    }
}
