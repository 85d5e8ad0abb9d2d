import Foundation

/// The session's life: launch decision, sign-in, sign-out, and every way a session ends.
///
/// It owns the auth state and its timeline, the startup message and the blocked-account
/// guard. Tokens stay with ``APIClient``; this actor asks the client to install or clear them.
public actor AuthSession {
    /// Shown on the startup screen while the backend is unhealthy.
    public static let systemUnavailableMessage = "Sistema indisponível"
    /// What the startup screen says while the device is offline (nothing is sent meanwhile).
    public static let offlineMessage = "Sem conexão com a internet"
    /// The sync-marker scope of the cached user.
    public static let userSyncScope = "user"

    private let client: APIClient
    private let sessionStore: any SessionStore
    private let health: HealthMonitor
    private let alerts: AlertCenter
    private let blocking: BlockingService
    private let now: @Sendable () -> Date
    private var wipeHooks: [@Sendable () async -> Void] = []
    private var blockGuard = BlockedSessionGuard()
    // Bumped whenever a session starts or ends, so work that suspended across such a change
    // can tell that its session is gone.
    private var generation = 0

    /// The current state.
    public private(set) var state: AuthState = .loading
    /// Every state the session went through, in order, starting with the initial one.
    public private(set) var timeline: [AuthState] = [.loading]
    /// The message on the startup screen, if any.
    public private(set) var startupMessage: String?

    init(
        client: APIClient,
        sessionStore: any SessionStore,
        health: HealthMonitor,
        alerts: AlertCenter,
        blocking: BlockingService,
        now: @escaping @Sendable () -> Date
    ) {
        self.client = client
        self.sessionStore = sessionStore
        self.health = health
        self.alerts = alerts
        self.blocking = blocking
        self.now = now
    }

    /// The screen for the current state.
    public var screen: Screen { state.screen }

    /// Whether the next blocked-account 403 will be handled.
    public var isBlockGuardArmed: Bool { blockGuard.isArmed }

    /// Re-arms the blocked-account guard (tests; sign-ins do it themselves).
    public func resetBlockGuard() {
        blockGuard.rearm()
    }

    // MARK: Launch

    /// Decides the launch: waits for a healthy backend (unless offline), then validates the
    /// stored session with `GET /users/me`.
    public func bootstrap() async {
        transition(to: .loading)
        guard await waitForBackend() else { return }

        guard await client.tokenPresence().hasAccessToken else {
            transition(to: .unauthenticated)
            return
        }
        let session = generation
        let outcome: Result<SessionUser, APIError>
        do {
            let response = try await client.send(.currentUser)
            outcome = SessionUser(json: response.data).map { .success($0) } ?? .failure(.undecodableBody)
        } catch {
            outcome = .failure(error)
        }

        switch StartupDecision.decide(outcome) {
        case .authenticate(let user):
            guard await remember(user, forSession: session) else { return }
            // The blocked-id cache lives in memory only: a restored session needs it as much
            // as a fresh sign-in does. Best effort, unless its answer ended the session.
            try? await blocking.reload()
            guard generation == session else { return }
            transition(to: .authenticated)
        case .endSession(let reason):
            // The client has ended it already when its answer did (a fatal 401, a block);
            // only an unusable user in a 200 is left for the launch to end.
            await endSession(reason, ifSession: session)
        case .showLogin:
            transition(to: .unauthenticated)
        case .expire:
            await client.clearTokens()
            generation += 1
            transition(to: .sessionExpired)
        }
    }

    /// Polls until the device is online and `/health` answers (offline skips the call itself).
    /// Returns `false` when cancelled while waiting.
    private func waitForBackend() async -> Bool {
        var status = await health.check()
        while status == .serverDown || status == .offline {
            startupMessage = status == .offline ? Self.offlineMessage : Self.systemUnavailableMessage
            guard let next = try? await health.checkAfterInterval() else { return false }
            status = next
        }
        startupMessage = nil
        return true
    }

    // MARK: Sign-in

    /// Signs in with email and password (`POST /auth/login`).
    @discardableResult
    public func login(email: String, password: String) async throws(APIError) -> SessionUser {
        let response = try await client.send(.login(email: email, password: password))
        return try await establishSession(from: response.data)
    }

    /// Creates an account and signs in (`POST /auth/register`).
    @discardableResult
    public func register(name: String, email: String, password: String) async throws(APIError) -> SessionUser {
        let response = try await client.send(.register(name: name, email: email, password: password))
        return try await establishSession(from: response.data)
    }

    /// Starts a session from a login-shaped answer: `{access_token, refresh_token, user}`.
    func establishSession(from data: JSONValue?) async throws(APIError) -> SessionUser {
        guard let data, let access = data["access_token"]?.stringValue, !access.isEmpty,
            let user = SessionUser(json: data["user"])
        else { throw .undecodableBody }
        if let reason = user.unusableReason { throw reason.error }

        // A new session: a block of this account must be handled again.
        blockGuard.rearm()
        generation += 1
        let session = generation
        let refresh = data["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        try await client.install(SessionTokens(accessToken: access, refreshToken: refresh))
        await remember(user, forSession: session)

        // The cache is a nicety: failing to load it must not fail the sign-in, unless the
        // answer ended the session (a block 403 on this very call).
        do {
            try await blocking.reload()
        } catch {
            guard generation == session else { throw error }
        }
        guard generation == session else { throw .sessionExpired }
        transition(to: .authenticated)
        return user
    }

    // MARK: Ending

    /// Signs out: tells the server (best effort), wipes local data, shows login. No alert.
    public func logout() async {
        if await client.tokenPresence().hasAccessToken {
            // The outcome does not matter: the local session ends either way.
            _ = try? await client.send(.logout)
        }
        await endLocally()
    }

    /// Ends the session without telling the server (the account is gone or refused).
    func endLocally() async {
        generation += 1
        transition(to: .unauthenticated)
        await wipe()
    }

    /// Ends the session locally, unless the session a request was sent in is over already.
    func endLocally(ifSession session: Int) async {
        guard session == generation else { return }
        await endLocally()
    }

    /// Identifies the current session: answers to requests of an earlier one must not touch it.
    var currentSession: Int { generation }

    /// Ends the session for `reason`, unless the session a request was sent in is over already.
    func endSession(_ reason: SessionEndReason, ifSession session: Int) async {
        guard session == generation else { return }
        await endSession(reason)
    }

    /// Ends the session for a reason the client or the launch check found.
    func endSession(_ reason: SessionEndReason) async {
        if reason == .blocked, blockGuard.forbiddenReceived() == .ignore {
            return
        }
        await endLocally()
        if reason == .blocked {
            await alerts.emit(.accountBlocked)
        }
    }

    /// Registers work to run on every wipe (caches owned by other components).
    func addWipeHook(_ hook: @escaping @Sendable () async -> Void) {
        wipeHooks.append(hook)
    }

    /// Removes every local trace of the session.
    private func wipe() async {
        await client.clearTokens()
        // Like the token store, a store that cannot delete has no better fallback here.
        try? await sessionStore.clear()
        for hook in wipeHooks {
            await hook()
        }
        startupMessage = nil
    }

    /// Caches the user loaded in `session`; returns `false`, caching nothing, when that session
    /// has ended meanwhile (a late answer must not refill a wiped store).
    @discardableResult
    func remember(_ user: SessionUser, forSession session: Int) async -> Bool {
        guard session == generation else { return false }
        // The cache only spares a round trip on the next launch; failing to write it is harmless.
        try? await sessionStore.setUser(user)
        try? await sessionStore.setSyncMarker(now().formatted(.iso8601), forScope: Self.userSyncScope)
        return true
    }

    private func transition(to next: AuthState) {
        guard next != state else { return }
        state = next
        timeline.append(next)
    }
}
