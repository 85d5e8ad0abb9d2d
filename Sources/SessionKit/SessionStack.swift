import HTTPCore

/// The whole session stack, built from one ``SessionEnvironment``: what an app (or a scenario
/// driver) holds on to.
public struct SessionStack: Sendable {
    /// The effects the stack was built with.
    public let environment: SessionEnvironment
    /// The HTTP client; the only owner of tokens.
    public let client: APIClient
    /// Launch decision, sign-in, sign-out.
    public let auth: AuthSession
    /// The current user's account.
    public let user: UserSession
    /// The forgot-password flow.
    public let passwordReset: PasswordReset
    /// The phone-code sign-in.
    public let verification: PhoneVerification
    /// Blocking other users and the blocked-id cache.
    public let blocking: BlockingService
    /// The backend's health.
    public let health: HealthMonitor
    /// Every alert, in order.
    public let alerts: AlertCenter

    /// Builds and wires every component.
    ///
    /// Asynchronous because the components that must reach each other (the client ending a
    /// session, the session wiping other components' caches) are connected through their
    /// actors after creation, with weak references so the stack has no retain cycle.
    public init(environment: SessionEnvironment) async {
        self.environment = environment
        let client = APIClient(
            transport: environment.transport, tokenStore: environment.tokenStore, now: environment.now)
        let alerts = AlertCenter()
        let health = HealthMonitor(
            client: client, connectivity: environment.connectivity, clock: environment.clock,
            interval: environment.healthPollInterval)
        let blocking = BlockingService(
            client: client, sessionStore: environment.sessionStore, connectivity: environment.connectivity)
        let auth = AuthSession(
            client: client, sessionStore: environment.sessionStore, health: health, alerts: alerts,
            blocking: blocking, now: environment.now)
        let verification = PhoneVerification(
            client: client, auth: auth, alerts: alerts, clock: environment.clock,
            countdownSeconds: environment.verificationCountdown)

        await client.setSessionEndHandler { [weak auth] reason in
            await auth?.endSession(reason)
        }
        await auth.addWipeHook { [weak blocking] in await blocking?.clear() }
        await auth.addWipeHook { [weak verification] in await verification?.reset() }

        self.client = client
        self.alerts = alerts
        self.health = health
        self.blocking = blocking
        self.auth = auth
        self.verification = verification
        self.user = UserSession(client: client, sessionStore: environment.sessionStore, auth: auth)
        self.passwordReset = PasswordReset(
            client: client, alerts: alerts, elapsed: ElapsedTime(clock: environment.clock),
            cooldown: environment.resetCooldown)
    }

    /// Everything observable, at this moment.
    public func snapshot() async -> SessionSnapshot {
        let record = await environment.sessionStore.record()
        let state = await auth.state
        return SessionSnapshot(
            auth: state,
            screen: state.screen,
            startupMessage: await auth.startupMessage,
            user: record.user.map(SessionSnapshot.User.init),
            tokens: await client.tokenPresence(),
            health: await health.status,
            verification: SessionSnapshot.Verification(await verification.state),
            blockedIDs: await blocking.blockedIDs(),
            preferences: record.preferences,
            syncMarkers: record.syncMarkers,
            passwordResetCooldownSeconds: ResetCooldown.wholeSecondsRoundedUp(
                await passwordReset.cooldownRemaining()),
            timeline: await auth.timeline)
    }

    /// Sends any call through the client (refresh, block handling and error mapping included)
    /// and returns the decoded body, `nil` when empty. An `authenticated` call carries the
    /// session's token; one that is not (a password reset) goes without it, signed in or not.
    public func request(
        method: HTTPMethod,
        path: String,
        query: [HTTPRequest.QueryItem] = [],
        body: JSONValue? = nil,
        authenticated: Bool = true
    ) async throws(APIError) -> JSONValue? {
        let endpoint = APIEndpoint(method: method, path: path, query: query, body: body, authenticated: authenticated)
        return try await client.send(endpoint).body
    }
}
