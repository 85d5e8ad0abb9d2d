import Foundation
import HTTPCore

/// Every effect the session stack has, injected: network, time, storage, connectivity and
/// the executor background work runs on. Nothing in the stack reaches past it.
public struct SessionEnvironment: Sendable {
    /// Sends requests.
    public var transport: any HTTPTransport
    /// Sleeping and measuring time (cooldowns, polling, countdowns).
    public var clock: any Clock<Duration>
    /// Wall time, to read `Retry-After` dates and stamp sync markers.
    public var now: @Sendable () -> Date
    /// Holds the tokens.
    public var tokenStore: any TokenStore
    /// Holds the cached user, preferences and sync markers.
    public var sessionStore: any SessionStore
    /// Tells whether the device is online.
    public var connectivity: any ConnectivitySource
    /// The wait between two health checks while polling.
    public var healthPollInterval: Duration
    /// How long the password-reset button stays disabled after a request.
    public var resetCooldown: Duration
    /// The phone-code resend countdown, in whole seconds.
    public var verificationCountdown: Int

    /// The default wait between two health checks.
    public static let defaultHealthPollInterval: Duration = .seconds(15)
    /// The shortest health poll interval; shorter ones given to the initializer are raised to it.
    public static let minimumHealthPollInterval: Duration = .seconds(1)
    /// The default password-reset cooldown.
    public static let defaultResetCooldown: Duration = .seconds(60)
    /// The default resend countdown, in seconds.
    public static let defaultVerificationCountdown = 60

    /// Creates an environment. The clock and `now` have no defaults on purpose: a stack that
    /// silently read the real time would make tests and scenarios depend on the wall clock.
    public init(
        transport: any HTTPTransport,
        clock: any Clock<Duration>,
        now: @escaping @Sendable () -> Date,
        tokenStore: any TokenStore = InMemoryTokenStore(),
        sessionStore: any SessionStore = InMemorySessionStore(),
        connectivity: any ConnectivitySource = ManualConnectivity(),
        healthPollInterval: Duration = SessionEnvironment.defaultHealthPollInterval,
        resetCooldown: Duration = SessionEnvironment.defaultResetCooldown,
        verificationCountdown: Int = SessionEnvironment.defaultVerificationCountdown
    ) {
        self.transport = transport
        self.clock = clock
        self.now = now
        self.tokenStore = tokenStore
        self.sessionStore = sessionStore
        self.connectivity = connectivity
        // Polling faster than this only loads the server; at zero it never lets time pass.
        self.healthPollInterval = max(healthPollInterval, Self.minimumHealthPollInterval)
        self.resetCooldown = resetCooldown
        self.verificationCountdown = verificationCountdown
    }
}
