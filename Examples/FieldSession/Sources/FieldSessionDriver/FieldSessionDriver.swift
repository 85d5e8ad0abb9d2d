import Foundation
import SampleApp
import SampleAppDriver
import ScenarioKit

/// The sample app as the build a field session was captured with: its feed screen made an
/// `APIClient` of its own from the stored tokens, so the feed's refresh is not shared with the
/// app's. Each client shares a refresh among its own callers, but when the feed and another
/// screen meet an expired token at once, both refresh, with the same refresh token, at the
/// same time. Everything else is the sample app's driver.
public struct FieldSessionDriver: ScenarioDriver {
    /// Creates the driver.
    public init() {}

    private let app = SampleAppDriver()

    /// `SampleApp (field build)`.
    public var name: String { app.name + " (field build)" }
    /// The sample app's actions.
    public var actions: [ActionSpec] { app.actions }
    /// The sample app's `given` keys.
    public var givenKeys: [GivenSpec] { app.givenKeys }

    /// Calls become `request` steps, the refresh is the client's own, sign-in and sign-out are
    /// their actions, and the stored tokens a capture starts with go to `given.session`.
    public var traceImport: TraceImportSpec {
        TraceImportSpec(
            requestAction: "request", appRequests: [.init("POST", "/auth/refresh")],
            actionRules: [
                .init(.init("POST", "/auth/login"), action: "login", arguments: ["email": "email", "password": "password"]),
                .init(.init("POST", "/auth/logout"), action: "logout"),
            ],
            startAction: "bootstrap", startRequests: [.init("GET", "/users/me")],
            given: { credentials in
                guard let access = credentials.accessToken else { return [:] }
                var session: JSONObject = ["accessToken": .string(access)]
                if let refresh = credentials.refreshToken { session["refreshToken"] = .string(refresh) }
                return ["session": .object(session)]
            })
    }

    /// The sample app's stack, and the feed screen's client beside it, from the same stored tokens.
    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let feed = SampleAppDriver.client(context, tokens: try SampleAppDriver.tokens(context.given))
        return Session(app: try await app.makeSession(context), feed: feed, now: context.now)
    }

    /// The app's session, with the feed's calls going through the feed screen's own client.
    private struct Session: DriverSession {
        let app: any DriverSession
        let feed: APIClient
        let now: @Sendable () -> Date

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            guard action == "request", arguments["path"]?.stringValue?.hasPrefix("/feed") == true else {
                return await app.perform(action, arguments: arguments)
            }
            return await SampleAppDriver.request(arguments, through: feed, now: now)
        }

        func snapshot() async -> JSONValue { await app.snapshot() }
        func alerts() async -> [JSONValue] { await app.alerts() }
        func timeline() async -> [JSONValue] { await app.timeline() }
    }
}
