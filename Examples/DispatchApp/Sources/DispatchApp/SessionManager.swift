import Foundation

/// The app's session logic in the completion-handler style: startup, sign-in, sign-out, and the
/// client's reports (blocked account, ended session, rate limit). Its own state and ``state``
/// change on the main queue only; every completion is called there.
public final class SessionManager: APIClientDelegate, @unchecked Sendable {
    /// The client every call goes through.
    public let client: APIClient
    /// What the screens show; read it on the main queue.
    public let state = AppState()
    private let health: HealthMonitor
    // One blocked-account handling per session: disarmed by the first 403, re-armed by a sign-in.
    private var blockedGuardArmed = true

    /// Creates the manager and makes it the client's delegate.
    /// - Parameter healthPollInterval: the wait between health checks while the backend is down.
    public init(client: APIClient, healthPollInterval: TimeInterval = 15) {
        self.client = client
        self.health = HealthMonitor(client: client, interval: .milliseconds(Int((healthPollInterval * 1000).rounded())))
        client.delegate = self
    }

    // MARK: Startup

    /// App start: the health check (polling while the backend is down), then, with a stored
    /// session, `GET /users/me` decides the screen. `completion` gets the decided state.
    public func bootstrap(completion: @escaping @Sendable (AppState.AuthState) -> Void) {
        DispatchQueue.main.async {
            self.state.move(to: .loading)
            self.health.waitUntilHealthy(
                report: { healthy in self.state.healthChecked(healthy: healthy) },
                then: { self.decideStartup(completion) })
        }
    }

    private func decideStartup(_ completion: @escaping @Sendable (AppState.AuthState) -> Void) {
        guard client.isSignedIn else {
            state.signOut()
            return completion(state.auth)
        }
        client.currentUser { result in
            switch result {
            case .success(let user) where user.active == false || user.isDeleted == true:
                // An unusable account: nothing of it may stay on the device.
                self.client.clearTokens()
                self.state.signOut()
            case .success(let user):
                self.state.signIn(user)
            case .failure(.forbidden), .failure(.sessionEnded), .failure(.accountInactive), .failure(.accountDeleted):
                // The client's report already wiped the session and moved to the login screen.
                self.client.clearTokens()
                self.state.signOut()
            case .failure:
                // Network, 5xx, rate limit or an odd body: no decision possible, no second try.
                self.client.clearTokens()
                self.state.signOut(to: .sessionExpired)
            }
            completion(self.state.auth)
        }
    }

    // MARK: Sign-in and sign-out

    /// Email sign-in; a new session re-arms the blocked-account guard.
    public func login(email: String, password: String, completion: @escaping APIClient.Completion<AppUser>) {
        client.login(email: email, password: password) { result in
            if case .success(let user) = result {
                self.blockedGuardArmed = true
                self.state.signIn(user)
            }
            completion(result)
        }
    }

    /// Regular sign-out: no alert.
    public func logout(completion: @escaping @Sendable () -> Void) {
        client.logout {
            self.state.signOut()
            completion()
        }
    }

    // MARK: APIClientDelegate (main queue)

    /// The first blocked 403 of a session logs out locally, wipes and alerts; the rest do nothing.
    public func apiClientDidDetectBlockedAccount(_ client: APIClient) {
        guard blockedGuardArmed else { return }
        blockedGuardArmed = false
        client.clearTokens()
        state.signOut()
        state.show(.accountBlocked)
    }

    /// Back to the login screen.
    public func apiClientSessionDidEnd(_ client: APIClient) {
        state.signOut()
    }

    /// A server rate limit (429) not waited out is shown; a 503 only reaches its caller.
    public func apiClient(_ client: APIClient, didGiveUpOnRateLimit error: APIError) {
        if case .rateLimited(_, 429, let message) = error {
            state.show(.rateLimited(message: message))
        }
    }
}
