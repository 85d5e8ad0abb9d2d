import Foundation
import SampleApp
import ScenarioKit

/// The scenario driver for the sample app: the app is built as an iOS team would build it
/// (a main-actor store, an actor API client owning its URLSession) and nothing in it knows
/// about scenarios.
public struct SampleAppDriver: ScenarioDriver {
    /// Creates the driver.
    public init() {}

    /// `SampleApp`.
    public var name: String { "SampleApp" }
    /// The sample app's actions.
    public var actions: [ActionSpec] { Self.catalog }
    /// The `given` keys the sample app reads.
    public var givenKeys: [GivenSpec] { Self.givenCatalog }

    /// Builds the store and its client; on the URLSession route the client owns a URLSession
    /// built from the run's configuration, on the direct route it loads through the transport.
    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let client = Self.client(context, tokens: try Self.tokens(context.given))
        let store = await MainActor.run { SessionStore(client: client) }
        await store.connect()
        return SampleAppSession(store: store, now: context.now)
    }

    /// A client as the app builds one: over a URLSession of the run's configuration on the
    /// URLSession route, through the transport on the direct route.
    package static func client(_ context: DriverContext, tokens: SessionTokens?) -> APIClient {
        switch context.route {
        case .urlSession:
            APIClient(configuration: context.urlSessionConfiguration(), baseURL: context.baseURL, tokens: tokens, now: context.now)
        default:
            APIClient(loader: TransportLoader(transport: context.transport), baseURL: context.baseURL, tokens: tokens, now: context.now)
        }
    }

    /// What `given` holds, as the driver reads it.
    struct Given: Decodable {
        struct Session: Decodable {
            var accessToken: String
            var refreshToken: String?
        }
        var session: Session?
    }

    package static func tokens(_ given: JSONValue) throws -> SessionTokens? {
        try given.decode(Given.self).session.map { SessionTokens(access: $0.accessToken, refresh: $0.refreshToken) }
    }
}
