import Foundation
import ScenarioKit
import TaskBoard

/// The scenario driver for the task board: the app as its team builds it (a `@MainActor` model,
/// an actor client that owns its `URLSession` and renews tokens on a `401`), with nothing in it
/// that knows about scenarios. ``Build`` picks the release: the one with the field bug, or the fix.
public struct TaskBoardDriver: ScenarioDriver {
    /// Which release of the board runs.
    public enum Build: String, Sendable, CaseIterable {
        /// Release 2.3.0: each refused call refreshes on its own (``RefreshStrategy/perRequest``).
        case buggy
        /// Release 2.3.1: one refresh shared by every refused call (``RefreshStrategy/shared``).
        case fixed

        /// The client's strategy in this release.
        public var strategy: RefreshStrategy { self == .buggy ? .perRequest : .shared }
    }

    /// The release this driver builds.
    public let build: Build
    /// Records the app's session as its debug build does, when set.
    public let recorder: URLSessionRecorder?

    /// Creates a driver for one release; `recorder`, when given, is installed in the app's
    /// session configuration as a debug build's network menu installs it.
    public init(build: Build, recorder: URLSessionRecorder? = nil) {
        self.build = build
        self.recorder = recorder
    }

    /// `TaskBoard 2.3.0 (buggy)` or `TaskBoard 2.3.1 (fixed)`.
    public var name: String { build == .buggy ? "TaskBoard 2.3.0 (buggy)" : "TaskBoard 2.3.1 (fixed)" }
    /// The board's actions.
    public var actions: [ActionSpec] { Self.catalog }
    /// The `given` keys the board reads.
    public var givenKeys: [GivenSpec] { Self.givenCatalog }

    /// Builds the model and its client over a URLSession of the run's configuration, which
    /// serves both routes.
    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let given = try context.given(as: Given.self)
        let configuration = context.urlSessionConfiguration()
        // Last: the recorder copies the configuration as it is now.
        recorder?.install(in: configuration)
        let client = APIClient(
            configuration: configuration, baseURL: context.baseURL,
            tokens: given.session.map { AuthTokens(access: $0.accessToken, refresh: $0.refreshToken) }, strategy: build.strategy)
        let model = await MainActor.run { TaskBoardModel(client: client) }
        await model.connect()
        return TaskBoardSession(model: model)
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
