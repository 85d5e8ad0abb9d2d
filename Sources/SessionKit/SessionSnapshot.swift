/// Everything a scenario may assert on, in one `Codable` value. Token values never appear,
/// only whether they are present.
public struct SessionSnapshot: Sendable, Hashable, Codable {
    /// The cached user, as reports show it.
    public struct User: Sendable, Hashable, Codable {
        /// The id.
        public var id: String
        /// The display name.
        public var name: String
        /// The email address.
        public var email: String
        /// Whether the account is active.
        public var active: Bool

        /// Creates the report view of a user.
        public init(_ user: SessionUser) {
            id = user.id
            name = user.name
            email = user.email
            active = user.active
        }
    }

    /// The phone-code sign-in, as reports show it.
    public struct Verification: Sendable, Hashable, Codable {
        /// A code was sent.
        public var codeSent: Bool
        /// Resending is allowed.
        public var canResend: Bool
        /// Seconds left before resending.
        public var countdown: Int
        /// Whether a verification id is held (never the id itself).
        public var hasVerificationID: Bool
        /// A request is under way.
        public var loading: Bool
        /// The error shown, if any.
        public var error: String?

        /// Creates the report view of a verification state.
        public init(_ state: VerificationState) {
            codeSent = state.codeSent
            canResend = state.canResend
            countdown = state.countdown
            hasVerificationID = state.verificationID != nil
            loading = state.isLoading
            error = state.error
        }
    }

    /// The auth state.
    public var auth: AuthState
    /// The screen shown.
    public var screen: Screen
    /// The startup screen's message, if any.
    public var startupMessage: String?
    /// The cached user, if any.
    public var user: User?
    /// Which tokens are stored.
    public var tokens: TokenPresence
    /// The backend's health as last seen.
    public var health: HealthStatus
    /// The phone-code sign-in.
    public var verification: Verification
    /// The blocked-id cache, sorted.
    public var blockedIDs: [String]
    /// The session's preferences.
    public var preferences: [String: String]
    /// Sync markers by scope.
    public var syncMarkers: [String: String]
    /// Whole seconds (rounded up) before another password reset may be requested.
    public var passwordResetCooldownSeconds: Int
    /// Every auth state so far, in order.
    public var timeline: [AuthState]
}
