import Foundation
import ScenarioKit
import TwoSessionApp

/// One two-session stack for one scenario run: actions call the store and the api client,
/// observations read the store on the main actor.
struct TwoSessionAppSession: DriverSession {
    let store: AppStore
    let now: @Sendable () -> Date

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        switch action {
        case "bootstrap":
            await store.bootstrap()
            return .value(["auth": .string(await store.auth.rawValue)])
        case "login":
            do throws(APIError) {
                try await store.login(email: arguments["email"]?.stringValue ?? "", password: arguments["password"]?.stringValue ?? "")
                return .value(nil)
            } catch {
                return .error(Self.describe(error))
            }
        case "logout":
            await store.logout()
            return .value(nil)
        case "request":
            return await request(path: arguments["path"]?.stringValue ?? "/", method: arguments["method"]?.stringValue ?? "GET")
        default:
            return .error(["code": "unknownAction", "action": .string(action)])
        }
    }

    private func request(path: String, method: String) async -> ActionResult {
        let started = now()
        do throws(APIError) {
            let response = try await store.api.send(APIRequest(method.uppercased(), path))
            return .value([
                "status": .number(Double(response.status)),
                "attempts": .number(Double(response.attempts)),
                // Virtual seconds the call took, so scenarios can pin how long a backoff waited.
                "elapsed": .number(now().timeIntervalSince(started)),
                "data": JSONValue.parse(response.data)?["data"] ?? .null,
            ])
        } catch {
            return .error(Self.describe(error))
        }
    }

    static func describe(_ error: APIError) -> JSONValue {
        switch error {
        case .notSignedIn: ["code": "notSignedIn"]
        case .unauthorized(let code): ["code": "unauthorized", "serverCode": code.map { .string($0) } ?? .null]
        case .forbidden: ["code": "forbidden"]
        case .accountInactive: ["code": "accountInactive"]
        case .accountDeleted: ["code": "accountDeleted"]
        case .sessionEnded: ["code": "sessionEnded"]
        case .network: ["code": "network"]
        case .badBody: ["code": "badBody"]
        case .rateLimited(let status, let retryAfter, _):
            ["code": "rateLimited", "status": .number(Double(status)), "retryAfter": retryAfter.map { .number(Double($0)) } ?? .null]
        case .server(let status, let code):
            ["code": "server", "status": .number(Double(status)), "serverCode": code.map { .string($0) } ?? .null]
        }
    }

    func snapshot() async -> JSONValue {
        let credentials = store.services.credentials
        let tokens: JSONValue = [
            "access": await credentials.accessToken != nil ? true : nil,
            "refresh": await credentials.hasRefreshToken ? true : nil,
        ]
        return await MainActor.run {
            let user: JSONValue =
                store.currentUser.map { ["id": .string($0.id), "name": .string($0.name), "email": .string($0.email)] } ?? .null
            return [
                "auth": .string(store.auth.rawValue), "screen": .string(store.screen.rawValue), "user": user, "tokens": tokens,
                "startupMessage": store.startupMessage.map { .string($0) } ?? .null, "userSynced": .bool(store.userSyncedAt != nil),
            ]
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
