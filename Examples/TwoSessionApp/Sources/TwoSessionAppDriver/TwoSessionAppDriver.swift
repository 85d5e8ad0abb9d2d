import Foundation
import ScenarioKit
import TwoSessionApp

/// The scenario driver for the two-session app: an `api` and an `auth` client, each over its
/// own URLSession, a refresh coalescer, a main-actor store. Nothing in the app knows about
/// scenarios.
public struct TwoSessionAppDriver: ScenarioDriver {
    /// Creates the driver.
    public init() {}

    /// `TwoSessionApp`.
    public var name: String { "TwoSessionApp" }
    /// The app's actions.
    public var actions: [ActionSpec] { Self.catalog }
    /// The `given` keys the app reads.
    public var givenKeys: [GivenSpec] { Self.givenCatalog }

    /// Builds the store and both clients: on the URLSession route each client owns a URLSession
    /// built from the run's configuration, on the direct route each loads through the transport.
    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let given = try context.given.decode(Given.self)
        let tokens = given.session.map { SessionTokens(access: $0.accessToken, refresh: $0.refreshToken) }
        let interval = try given.config?.healthPollInterval.map { try Duration(scenarioText: $0) } ?? .seconds(15)
        let services = AppServices(tokens: tokens, now: context.now) { delegate in
            switch context.route {
            case .urlSession:
                APIClient(baseURL: context.baseURL, sessionConfiguration: context.urlSessionConfiguration(), delegate: delegate)
            default:
                APIClient(baseURL: context.baseURL, loader: TransportLoader(transport: context.transport), delegate: delegate)
            }
        }
        let store = await MainActor.run { AppStore(services: services, healthPollInterval: interval) }
        return TwoSessionAppSession(store: store, now: context.now)
    }

    struct Given: Decodable {
        struct Session: Decodable {
            var accessToken: String
            var refreshToken: String?
        }
        struct Config: Decodable { var healthPollInterval: String? }
        var session: Session?
        var config: Config?
    }
}
