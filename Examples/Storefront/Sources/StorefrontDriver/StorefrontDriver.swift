import Foundation
import ScenarioKit
import Storefront

/// The scenario driver for the shop: the app as its team builds it (completion handlers, a
/// private serial queue, `asyncAfter` for its waits, `DispatchQueue.main.async` for every
/// completion), with nothing in it that knows about scenarios. ``Build`` picks the release: the
/// one with the field bug, or the fix.
public struct StorefrontDriver: ScenarioDriver {
    /// Which release of the shop runs.
    public enum Build: String, Sendable, CaseIterable {
        /// Release 3.4.0: 1 s then 2 s between sends, whatever `Retry-After` says (``BackoffPolicy/fixedSteps``).
        case buggy
        /// Release 3.4.1: waits out `Retry-After`, seconds or HTTP-date (``BackoffPolicy/serverAdvised``).
        case fixed

        /// The client's backoff in this release.
        public var backoff: BackoffPolicy { self == .buggy ? .fixedSteps : .serverAdvised }
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

    /// `Storefront 3.4.0 (buggy)` or `Storefront 3.4.1 (fixed)`.
    public var name: String { build == .buggy ? "Storefront 3.4.0 (buggy)" : "Storefront 3.4.1 (fixed)" }
    /// The shop's actions.
    public var actions: [ActionSpec] { Self.catalog }
    /// The `given` keys the shop reads.
    public var givenKeys: [GivenSpec] { Self.givenCatalog }

    /// Builds the model and its client over a URLSession of the run's configuration, which
    /// serves both routes.
    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let given = try context.given(as: Given.self)
        let configuration = context.urlSessionConfiguration()
        // Last: the recorder copies the configuration as it is now.
        recorder?.install(in: configuration)
        let api = StoreAPI(
            configuration: configuration, baseURL: context.baseURL,
            tokens: given.session.map { StoreTokens(access: $0.accessToken, refresh: $0.refreshToken) }, backoff: build.backoff,
            now: context.now)
        return StorefrontSession(model: StorefrontViewModel(api: api))
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
