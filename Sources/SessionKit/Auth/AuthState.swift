/// Where the session stands.
public enum AuthState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Deciding at launch: nothing of the business UI is shown yet.
    case loading
    /// No session: the login screen.
    case unauthenticated
    /// A valid session: the dashboard.
    case authenticated
    /// The launch check could not reach a decision (network, 5xx): tokens were cleared.
    case sessionExpired

    /// The screen shown in this state.
    public var screen: Screen {
        switch self {
        case .loading: .startup
        case .unauthenticated: .login
        case .authenticated: .dashboard
        case .sessionExpired: .sessionExpired
        }
    }
}
