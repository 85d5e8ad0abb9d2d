import Foundation

#if canImport(Combine)
    import Combine
#endif

/// The app's session state for the UI: auth state, screen, user, alerts, the startup message
/// and the timeline of states. It changes on the main actor only; the api client's policy
/// reports blocked accounts, ended sessions and long rate limits here.
@MainActor
public final class AppStore {
    /// Where the session stands.
    public enum AuthState: String, Sendable {
        case loading, unauthenticated, authenticated, sessionExpired
    }

    /// The screen each state shows.
    public enum Screen: String, Sendable {
        case startup, login, dashboard, sessionExpired
    }

    /// Shown on the startup screen while the backend is unhealthy.
    public static let systemUnavailableMessage = "Sistema indisponível"

    // SwiftUI observes the store through Combine where it exists; elsewhere the same properties
    // are plain main-actor state.
    #if canImport(Combine)
        /// Where the session stands.
        @Published public private(set) var auth: AuthState = .loading {
            didSet { if auth != oldValue { timeline.append(auth) } }
        }
        /// The screen on show.
        @Published public private(set) var screen: Screen = .startup
        /// The signed-in user, once known.
        @Published public private(set) var currentUser: AppUser?
        /// Every alert shown, in order.
        @Published public private(set) var alerts: [AppAlert] = []
        /// The startup screen's message while the backend is down.
        @Published public private(set) var startupMessage: String?
    #else
        /// Where the session stands.
        public private(set) var auth: AuthState = .loading {
            didSet { if auth != oldValue { timeline.append(auth) } }
        }
        /// The screen on show.
        public private(set) var screen: Screen = .startup
        /// The signed-in user, once known.
        public private(set) var currentUser: AppUser?
        /// Every alert shown, in order.
        public private(set) var alerts: [AppAlert] = []
        /// The startup screen's message while the backend is down.
        public private(set) var startupMessage: String?
    #endif
    /// Every auth state the store went through, in order.
    public private(set) var timeline: [AuthState] = [.loading]
    /// When the current user was last fetched from the server (the user scope's sync marker).
    public private(set) var userSyncedAt: Date?

    /// The stack every call goes through.
    public nonisolated let services: AppServices
    private let healthPollInterval: Duration
    // One blocked-account handling per session: disarmed by the first 403, re-armed by a login.
    private var blockedGuardArmed = true

    /// Creates the store over the app's services; `healthPollInterval` is the wait between
    /// health checks while the backend is down at launch.
    public init(services: AppServices, healthPollInterval: Duration = .seconds(15)) {
        self.services = services
        self.healthPollInterval = healthPollInterval
        services.events.store = self
    }

    /// The client of the app's calls.
    public nonisolated var api: APIClient { services.api }

    // MARK: Startup

    /// App start: waits for a healthy backend, then lets `GET /users/me` decide where the
    /// stored session stands.
    public func bootstrap() async {
        move(to: .loading)
        while await !backendIsHealthy() {
            startupMessage = Self.systemUnavailableMessage
            do {
                try await Task.sleep(for: healthPollInterval)
            } catch {
                return
            }
        }
        startupMessage = nil
        guard await services.credentials.accessToken != nil else { return decide(.unauthenticated) }
        do {
            let user = try await api.send(APIRequest("GET", "/users/me")).decoded(AppUser.self)
            guard user.isUsable else {
                // An inactive or deleted account: nothing of it may stay on the device.
                await wipe()
                return decide(.unauthenticated)
            }
            currentUser = user
            userSyncedAt = services.now()
            decide(.authenticated)
        } catch .forbidden {
            // The blocked-account handling has signed out, wiped and alerted already.
            return
        } catch .network, .server, .rateLimited, .badBody {
            await wipe()
            decide(.sessionExpired)
        } catch {
            // Refused token, failed refresh, inactive or deleted account.
            await wipe()
            decide(.unauthenticated)
        }
    }

    private func backendIsHealthy() async -> Bool {
        (try? await api.send(APIRequest("GET", "/health", isAuthenticated: false))) != nil
    }

    private func decide(_ state: AuthState) {
        // Screens change on the main actor only; fail loudly if a refactor moves this.
        MainActor.assertIsolated("startup decisions belong on the main actor")
        move(to: state)
    }

    // MARK: Sign-in and sign-out

    /// Email sign-in through the auth client; a new session re-arms the blocked-account guard.
    public func login(email: String, password: String) async throws(APIError) {
        let (tokens, user) = try await services.auth.login(email: email, password: password)
        guard user.isUsable else { throw user.isDeleted == true ? .accountDeleted : .accountInactive }
        await services.credentials.store(tokens)
        blockedGuardArmed = true
        currentUser = user
        userSyncedAt = services.now()
        move(to: .authenticated)
    }

    /// Regular sign-out: wipe, tell the server through the auth client, show login. No alert.
    public func logout() async {
        currentUser = nil
        move(to: .unauthenticated)
        await wipe(tellingServer: true)
    }

    // MARK: Reports from the api client

    func accountBlocked() async {
        guard blockedGuardArmed else { return }
        // Disarmed before the first suspension: every other 403 of the burst finds it so.
        blockedGuardArmed = false
        currentUser = nil
        move(to: .unauthenticated)
        alerts.append(.accountBlocked)
        await wipe(tellingServer: true)
    }

    func sessionEnded() async {
        currentUser = nil
        move(to: .unauthenticated)
        await wipe()
    }

    func rateLimited(message: String?) {
        alerts.append(.tooManyRequests(message: message))
    }

    private func wipe(tellingServer: Bool = false) async {
        currentUser = nil
        userSyncedAt = nil
        let access = await services.credentials.clear()
        if tellingServer, let access { await services.auth.logout(accessToken: access) }
    }

    private func move(to state: AuthState) {
        auth = state
        switch state {
        case .loading: screen = .startup
        case .unauthenticated: screen = .login
        case .authenticated: screen = .dashboard
        case .sessionExpired: screen = .sessionExpired
        }
    }
}
