import DispatchApp
import Foundation
import ScenarioKit

/// One Dispatch-app stack for one scenario run: actions call the session manager and wait for
/// its completion handler (`withCompletion`); observations read its state on the main queue,
/// where it lives (`onMainQueue`).
struct DispatchAppSession: DriverSession {
    let manager: SessionManager
    let now: @Sendable () -> Date

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        switch action {
        case "bootstrap":
            return await withCompletion {
                manager.bootstrap(completion: $0)
            } onMainQueue: {
                .value(["auth": .string($0.rawValue)])
            }
        case "login":
            let (email, password) = (arguments["email"]?.stringValue ?? "", arguments["password"]?.stringValue ?? "")
            return await withCompletion {
                manager.login(email: email, password: password, completion: $0)
            } onMainQueue: {
                Self.answer($0) { _ in nil }
            }
        case "logout":
            return await withCompletion { done in
                manager.logout { done(()) }
            } onMainQueue: {
                .value(nil)
            }
        case "request":
            let method = arguments["method"]?.stringValue?.uppercased() ?? "GET"
            let (now, started) = (now, now())
            return await withCompletion {
                manager.client.send(method, arguments["path"]?.stringValue ?? "/", completion: $0)
            } onMainQueue: {
                Self.answer($0) { response in
                    [
                        "status": .number(Double(response.status)), "attempts": .number(Double(response.attempts)),
                        // Virtual seconds the call took, so scenarios can pin how long backoff waited.
                        "elapsed": .number(now().timeIntervalSince(started)),
                        "data": JSONValue.parse(response.body)?["data"] ?? .null,
                    ]
                }
            }
        default:
            return .error(["code": "unknownAction", "action": .string(action)])
        }
    }

    /// A completion's result as the action's: its value described, or its failure as `.error`.
    static func answer<Value>(_ result: Result<Value, APIError>, _ describeValue: (Value) -> JSONValue) -> ActionResult {
        switch result {
        case .success(let value): .value(describeValue(value))
        case .failure(let error): .error(describe(error))
        }
    }

    static func describe(_ error: APIError) -> JSONValue {
        switch error {
        case .notSignedIn: return ["code": "notSignedIn"]
        case .forbidden: return ["code": "forbidden"]
        case .accountInactive: return ["code": "accountInactive"]
        case .accountDeleted: return ["code": "accountDeleted"]
        case .sessionEnded: return ["code": "sessionEnded"]
        case .network: return ["code": "network"]
        case .badBody: return ["code": "badBody"]
        case .rateLimited(let retryAfter, let status, let message):
            return [
                "code": "rateLimited", "status": .number(Double(status)), "retryAfter": retryAfter.map { .number(Double($0)) } ?? .null,
                "message": .string(message),
            ]
        case .server(let status, let code):
            return ["code": "server", "status": .number(Double(status)), "serverCode": code.map { .string($0) } ?? .null]
        }
    }

    func snapshot() async -> JSONValue {
        await onMainQueue {
            let state = manager.state
            let user: JSONValue =
                state.currentUser.map { ["id": .string($0.id), "name": .string($0.name), "email": .string($0.email)] } ?? .null
            let tokens: JSONValue = [
                "access": manager.client.isSignedIn ? true : nil,
                "refresh": manager.client.hasRefreshToken ? true : nil,
            ]
            return [
                "auth": .string(state.auth.rawValue), "screen": .string(state.screen.rawValue), "user": user, "tokens": tokens,
                "health": .string(state.health.rawValue), "notice": state.notice.map { .string($0) } ?? .null,
            ]
        }
    }

    func alerts() async -> [JSONValue] {
        await onMainQueue {
            manager.state.alerts.map { alert in
                [
                    "title": .string(alert.title), "message": .string(alert.message),
                    "actions": .array(alert.actions.map { ["title": .string($0)] }),
                ]
            }
        }
    }

    func timeline() async -> [JSONValue] {
        await onMainQueue { manager.state.timeline.map { .string($0.rawValue) } }
    }
}
