/// The root screen the app shows for an ``AuthState``.
public enum Screen: String, Sendable, Hashable, Codable, CaseIterable {
    /// The launch screen, possibly with a system message.
    case startup
    /// Sign-in.
    case login
    /// The signed-in home.
    case dashboard
    /// "Your session expired" with a way back to sign-in.
    case sessionExpired
}
