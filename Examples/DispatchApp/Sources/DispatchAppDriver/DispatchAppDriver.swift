import DispatchApp
import Foundation
import ScenarioKit

/// The scenario driver for the Dispatch app: the app is built as a pre-concurrency iOS team
/// builds it (completion handlers, private serial queues, `DispatchQueue.main.async`, a
/// `DispatchSourceTimer`, `Date()` for the time of day) and nothing in it knows about scenarios.
public struct DispatchAppDriver: ScenarioDriver {
    /// Creates the driver.
    public init() {}

    /// `DispatchApp`.
    public var name: String { "DispatchApp" }
    /// The Dispatch app's actions.
    public var actions: [ActionSpec] { Self.catalog }
    /// The `given` keys the Dispatch app reads.
    public var givenKeys: [GivenSpec] { Self.givenCatalog }

    /// Builds the session manager and its client; on the URLSession route the client owns a
    /// URLSession built from the run's configuration, on the direct route it loads through the
    /// transport.
    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let given = try context.given(as: Given.self)
        let tokens = given.session.map { SessionTokens(access: $0.accessToken, refresh: $0.refreshToken) }
        let client: APIClient
        switch context.route {
        case .urlSession:
            client = APIClient(
                configuration: context.urlSessionConfiguration(), baseURL: context.baseURL, tokens: tokens)
        default:
            client = APIClient(
                loader: TransportLoader(transport: context.transport), baseURL: context.baseURL, tokens: tokens)
        }
        let interval = try given.config?.healthPollInterval.map { try Duration(scenarioText: $0) } ?? .seconds(15)
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        return DispatchAppSession(manager: SessionManager(client: client, healthPollInterval: seconds), now: context.now)
    }

    /// What `given` holds, as the driver reads it.
    struct Given: Decodable {
        struct Session: Decodable {
            var accessToken: String
            var refreshToken: String?
        }
        struct Config: Decodable {
            var healthPollInterval: String?
        }
        var session: Session?
        var config: Config?
    }
}
