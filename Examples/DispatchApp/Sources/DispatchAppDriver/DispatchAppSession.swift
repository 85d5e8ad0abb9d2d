import DispatchApp
import Foundation
import ScenarioKit

/// One Dispatch-app stack for one scenario run: actions call the session manager and wait for
/// its completion handler; observations read its state on the main queue, where it lives.
struct DispatchAppSession: DriverSession {
    let manager: SessionManager
    let now: @Sendable () -> Date

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        switch action {
        case "bootstrap":
            let auth = await withCheckedContinuation { done in manager.bootstrap { done.resume(returning: $0) } }
            return .value(["auth": .string(auth.rawValue)])
        case "login":
            let email = arguments["email"]?.stringValue ?? ""
            let password = arguments["password"]?.stringValue ?? ""
            let result = await withCheckedContinuation { done in
                manager.login(email: email, password: password) { done.resume(returning: $0) }
            }
            return result.map { _ in .value(nil) }.get(or: Self.describe)
        case "logout":
            await withCheckedContinuation { done in manager.logout { done.resume() } }
            return .value(nil)
        case "request":
            let method = arguments["method"]?.stringValue?.uppercased() ?? "GET"
            let started = now()
            let result = await withCheckedContinuation { done in
                manager.client.send(method, arguments["path"]?.stringValue ?? "/") { done.resume(returning: $0) }
            }
            // Virtual seconds the call took, so scenarios can pin how long backoff waited.
            let elapsed = now().timeIntervalSince(started)
            return result.map { response in
                .value([
                    "status": .number(Double(response.status)),
                    "attempts": .number(Double(response.attempts)),
                    "elapsed": .number(elapsed),
                    "data": JSONValue.parse(response.body)?["data"] ?? .null,
                ])
            }.get(or: Self.describe)
        default:
            return .error(["code": "unknownAction", "action": .string(action)])
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

    /// Reads the app's state where the app writes it.
    private func onMainQueue<Value: Sendable>(_ read: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { done in DispatchQueue.main.async { done.resume(returning: read()) } }
    }
}

extension Result where Success == ActionResult {
    /// The action's result, or its failure described as `.error`.
    fileprivate func get(or describe: (Failure) -> JSONValue) -> ActionResult {
        switch self {
        case .success(let result): return result
        case .failure(let error): return .error(describe(error))
        }
    }
}
