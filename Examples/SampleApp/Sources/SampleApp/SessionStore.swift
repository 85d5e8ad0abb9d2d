import Foundation

#if canImport(Combine)
    import Combine
#endif

/// The app's session state for the UI: auth state, screen, current user and alerts. Everything
/// here changes on the main actor; the API client reports into it with `MainActor.run`.
@MainActor
public final class SessionStore {
    /// Where the session stands.
    public enum AuthState: String, Sendable {
        case loading, unauthenticated, authenticated, sessionExpired
    }

    /// The screen each state shows.
    public enum Screen: String, Sendable {
        case startup, login, dashboard, sessionExpired
    }

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
    #endif
    /// Every auth state the store went through, in order.
    public private(set) var timeline: [AuthState] = [.loading]

    /// The client every call goes through.
    public nonisolated let client: APIClient
    // One blocked-account handling per session: disarmed by the first 403, re-armed by a login.
    private var blockedGuardArmed = true

    /// Creates a store over a client; call ``connect()`` before using it.
    public init(client: APIClient) {
        self.client = client
    }

    /// Lets the client report a blocked account or an ended session here.
    public func connect() async {
        await client.setHandlers(
            blocked: { [weak self] in self?.accountBlocked() ?? false },
            sessionEnded: { [weak self] in self?.sessionEnded() })
    }

    // MARK: Startup

    /// App start: no stored session shows the login screen; otherwise `GET /users/me` decides.
    public func bootstrap() async {
        move(to: .loading)
        guard await client.isSignedIn else { return apply(.unauthenticated, user: nil) }
        do {
            let user = try await client.currentUser()
            if user.active == false || user.isDeleted == true {
                // An unusable account: nothing of it may stay on the device.
                await client.clearTokens()
                apply(.unauthenticated, user: nil)
            } else {
                apply(.authenticated, user: user)
            }
        } catch APIError.forbidden {
            // The blocked-account guard has already wiped and alerted.
            return
        } catch APIError.network, APIError.badBody, APIError.rateLimited, APIError.server {
            await client.clearTokens()
            apply(.sessionExpired, user: nil)
        } catch {
            await client.clearTokens()
            apply(.unauthenticated, user: nil)
        }
    }

    private func apply(_ state: AuthState, user: AppUser?) {
        // The screen must only ever change on the main actor; fail loudly if a refactor moves it.
        MainActor.assertIsolated("startup decisions belong on the main actor")
        currentUser = user
        move(to: state)
    }

    // MARK: Sign-in and sign-out

    /// Email sign-in; a new session re-arms the blocked-account guard.
    public func login(email: String, password: String) async throws {
        let user = try await client.login(email: email, password: password)
        blockedGuardArmed = true
        currentUser = user
        move(to: .authenticated)
    }

    /// Regular sign-out: no alert.
    public func logout() async {
        await client.logout()
        currentUser = nil
        move(to: .unauthenticated)
    }

    // MARK: Reports from the client

    private func accountBlocked() -> Bool {
        guard blockedGuardArmed else { return false }
        blockedGuardArmed = false
        currentUser = nil
        move(to: .unauthenticated)
        alerts.append(.accountBlocked)
        return true
    }

    private func sessionEnded() {
        currentUser = nil
        move(to: .unauthenticated)
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
