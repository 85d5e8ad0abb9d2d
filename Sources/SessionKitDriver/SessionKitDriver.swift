import Foundation
import HTTPCore
import ScenarioKit
import SessionKit

/// The scenario driver for SessionKit: action names to calls, and the state snapshot.
public struct SessionKitDriver: ScenarioDriver {
    /// Creates the driver.
    public init() {}

    /// `SessionKit`.
    public var name: String { "SessionKit" }
    /// The SessionKit actions steps may name.
    public var actions: [ActionSpec] { Self.catalog }
    /// The `given` keys SessionKit reads, such as `session` and `connectivity`.
    public var givenKeys: [GivenSpec] { Self.givenCatalog }

    /// Builds a fresh SessionKit stack from `given`, with in-memory stores and manual connectivity.
    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let given = try GivenState(context.given)
        let connectivity = ManualConnectivity(online: given.online)
        let environment = SessionEnvironment(
            transport: context.transport,
            clock: context.clock,
            now: context.now,
            tokenStore: InMemoryTokenStore(given.tokens),
            sessionStore: InMemorySessionStore(given.record),
            connectivity: connectivity,
            healthPollInterval: given.healthPollInterval,
            resetCooldown: given.resetCooldown,
            verificationCountdown: given.verificationCountdown)
        return SessionKitSession(stack: await SessionStack(environment: environment), connectivity: connectivity)
    }
}
