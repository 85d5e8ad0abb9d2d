import Foundation
import SampleApp
import ScenarioKit

/// One sample-app stack for one scenario run: actions call the store, observations read it
/// on the main actor.
struct SampleAppSession: DriverSession {
    let store: SessionStore
    let now: @Sendable () -> Date

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        switch action {
        case "bootstrap":
            await store.bootstrap()
            let auth = await MainActor.run { store.auth.rawValue }
            return .value(["auth": .string(auth)])
        case "login":
            do {
                try await store.login(email: arguments["email"]?.stringValue ?? "", password: arguments["password"]?.stringValue ?? "")
                return .value(nil)
            } catch {
                return .error(Self.describe(error))
            }
        case "logout":
            await store.logout()
            return .value(nil)
        case "request":
            return await SampleAppDriver.request(arguments, through: store.client, now: now)
        default:
            return .error(["code": "unknownAction", "action": .string(action)])
        }
    }

    static func describe(_ error: any Error) -> JSONValue {
        guard let error = error as? APIError else { return ["code": "cancelled"] }
        switch error {
        case .notSignedIn: return ["code": "notSignedIn"]
        case .forbidden: return ["code": "forbidden"]
        case .accountInactive: return ["code": "accountInactive"]
        case .accountDeleted: return ["code": "accountDeleted"]
        case .sessionEnded: return ["code": "sessionEnded"]
        case .network: return ["code": "network"]
        case .badBody: return ["code": "badBody"]
        case .rateLimited(let retryAfter, let status):
            return [
                "code": "rateLimited", "status": .number(Double(status)), "retryAfter": retryAfter.map { .number(Double($0)) } ?? .null,
            ]
        case .server(let status, let code):
            return ["code": "server", "status": .number(Double(status)), "serverCode": code.map { .string($0) } ?? .null]
        }
    }

    func snapshot() async -> JSONValue {
        let client = store.client
        let tokens: JSONValue = [
            "access": await client.isSignedIn ? true : nil,
            "refresh": await client.hasRefreshToken ? true : nil,
        ]
        return await MainActor.run {
            let user: JSONValue =
                store.currentUser.map { ["id": .string($0.id), "name": .string($0.name), "email": .string($0.email)] } ?? .null
            return ["auth": .string(store.auth.rawValue), "screen": .string(store.screen.rawValue), "user": user, "tokens": tokens]
        }
    }

    func alerts() async -> [JSONValue] {
        await MainActor.run {
            store.alerts.map { alert in
                [
                    "title": .string(alert.title), "message": .string(alert.message),
                    "actions": .array(alert.actions.map { ["title": .string($0)] }),
                ]
            }
        }
    }

    func timeline() async -> [JSONValue] {
        await MainActor.run { store.timeline.map { .string($0.rawValue) } }
    }
}

extension SampleAppDriver {
    /// The `request` action through `client`: `path` and `method` (GET by default) from `arguments`.
    package static func request(_ arguments: JSONValue, through client: APIClient, now: @Sendable () -> Date) async -> ActionResult {
        let (path, method) = (arguments["path"]?.stringValue ?? "/", arguments["method"]?.stringValue ?? "GET")
        let started = now()
        do {
            let response = try await client.send(method.uppercased(), path)
            // Virtual seconds the call took, so scenarios can pin how long backoff waited.
            let elapsed = now().timeIntervalSince(started)
            return .value([
                "status": .number(Double(response.status)),
                "attempts": .number(Double(response.attempts)),
                "elapsed": .number(elapsed),
                "data": JSONValue.parse(response.body)?["data"] ?? .null,
            ])
        } catch {
            return .error(SampleAppSession.describe(error))
        }
    }
}
