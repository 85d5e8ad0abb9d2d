/// What the screens show: auth state, screen, user, alerts, health. Read and written on the
/// main queue only, like a view controller's properties.
public final class AppState: @unchecked Sendable {
    /// Where the session stands.
    public enum AuthState: String, Sendable {
        case loading, unauthenticated, authenticated, sessionExpired
    }

    /// The screen each state shows.
    public enum Screen: String, Sendable {
        case startup, login, dashboard, sessionExpired
    }

    /// What the last health check said.
    public enum Health: String, Sendable {
        case unknown, healthy, serverDown
    }

    /// The startup screen's text while the backend is down.
    public static let systemUnavailable = "Sistema indisponível"

    /// Where the session stands.
    public private(set) var auth: AuthState = .loading
    /// The screen on show.
    public private(set) var screen: Screen = .startup
    /// The signed-in user, once known.
    public private(set) var currentUser: AppUser?
    /// Every alert shown, in order.
    public private(set) var alerts: [AppAlert] = []
    /// Every auth state gone through, in order.
    public private(set) var timeline: [AuthState] = [.loading]
    /// What the last health check said.
    public private(set) var health: Health = .unknown
    /// A notice on the startup screen, such as ``systemUnavailable``.
    public private(set) var notice: String?

    /// Creates the launch state: loading, startup screen.
    public init() {}

    func move(to state: AuthState) {
        if state != auth { timeline.append(state) }
        auth = state
        switch state {
        case .loading: screen = .startup
        case .unauthenticated: screen = .login
        case .authenticated: screen = .dashboard
        case .sessionExpired: screen = .sessionExpired
        }
    }

    func signIn(_ user: AppUser) {
        currentUser = user
        move(to: .authenticated)
    }

    /// Back to the login screen with nothing of the session left on show.
    func signOut(to state: AuthState = .unauthenticated) {
        currentUser = nil
        move(to: state)
    }

    func show(_ alert: AppAlert) {
        alerts.append(alert)
    }

    func healthChecked(healthy: Bool) {
        health = healthy ? .healthy : .serverDown
        notice = healthy ? nil : Self.systemUnavailable
    }
}
