import Foundation
import Messenger
import ScenarioKit

/// The scenario driver for the messenger: the app as its team builds it (async/await services,
/// each over a `URLSession` of its own, a `@MainActor` model), with nothing in it that knows
/// about scenarios. ``Build`` picks the release: the one with the field bug, or the fix.
public struct MessengerDriver: ScenarioDriver {
    /// Which release of the messenger runs.
    public enum Build: String, Sendable, CaseIterable {
        /// Release 1.8.0: sign-out leaves the calls on their way running (``SignOutPolicy/leaveCallsRunning``).
        case buggy
        /// Release 1.8.1: sign-out cancels them first (``SignOutPolicy/cancelCallsInFlight``).
        case fixed

        /// The release's sign-out.
        public var signOutPolicy: SignOutPolicy { self == .buggy ? .leaveCallsRunning : .cancelCallsInFlight }
    }

    /// The release this driver builds.
    public let build: Build
    /// Records the app's sessions as its debug build does, when set.
    public let recorder: URLSessionRecorder?

    /// Creates a driver for one release; `recorder`, when given, is installed in each of the
    /// app's session configurations as a debug build's network menu installs it.
    public init(build: Build, recorder: URLSessionRecorder? = nil) {
        self.build = build
        self.recorder = recorder
    }

    /// `Messenger 1.8.0 (buggy)` or `Messenger 1.8.1 (fixed)`.
    public var name: String { build == .buggy ? "Messenger 1.8.0 (buggy)" : "Messenger 1.8.1 (fixed)" }
    /// The messenger's actions.
    public var actions: [ActionSpec] { Self.catalog }
    /// The `given` keys the messenger reads.
    public var givenKeys: [GivenSpec] { Self.givenCatalog }

    /// Builds the services, each over a URLSession of a configuration of the run's (which serves
    /// both routes), and the model over them.
    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let given = try context.given(as: Given.self)
        let recorder = self.recorder
        let services = MessengerServices(
            baseURL: context.baseURL, tokens: given.session.map { ChatTokens(access: $0.accessToken, refresh: $0.refreshToken) },
            signOutPolicy: build.signOutPolicy
        ) { _ in
            let configuration = context.urlSessionConfiguration()
            // Last: the recorder copies the configuration as it is now.
            recorder?.install(in: configuration)
            return configuration
        }
        let model = await MainActor.run { MessengerModel(services: services) }
        await model.connect()
        return MessengerSession(model: model)
    }

    /// What `given` holds, as the driver reads it.
    struct Given: Decodable {
        struct Session: Decodable {
            var accessToken: String
            var refreshToken: String
        }
        var session: Session?
    }
}
