import Foundation
import ScenarioKit
import TaskBoard

/// One board for one scenario run: actions call the model, observations read it on the main
/// actor.
struct TaskBoardSession: DriverSession {
    let model: TaskBoardModel

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        do {
            switch action {
            case "launch":
                await model.launch()
                return .value(["screen": .string(await MainActor.run { model.screen.rawValue })])
            case "signIn":
                try await model.signIn(email: arguments["email"]?.stringValue ?? "", password: arguments["password"]?.stringValue ?? "")
                return .value(nil)
            case "loadBoard":
                try await model.loadBoard()
                return .value(["tasks": .number(Double(await MainActor.run { model.tasks.count }))])
            case "completeTask":
                try await model.complete(taskID: arguments["id"]?.stringValue ?? "")
                return .value(nil)
            case "addTask":
                try await model.addTask(title: arguments["title"]?.stringValue ?? "")
                return .value(nil)
            case "signOut":
                await model.signOut()
                return .value(nil)
            case "request":
                let response = try await model.client.send(Self.request(arguments))
                return .value(["status": .number(Double(response.status)), "body": JSONValue.parse(response.body) ?? .null])
            default:
                return .error(["code": "unknownAction", "action": .string(action)])
            }
        } catch {
            return .error(Self.describe(error))
        }
    }

    /// The `request` action's call: `path`, `method` (GET by default), `query` and `json`.
    static func request(_ arguments: JSONValue) -> APIRequest {
        let query = (arguments["query"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map {
            URLQueryItem(name: $0.key, value: $0.value.stringValue)
        }
        let body = arguments["json"].map { Data($0.compactText.utf8) }
        return APIRequest(
            (arguments["method"]?.stringValue ?? "GET").uppercased(), arguments["path"]?.stringValue ?? "/", query: query, body: body)
    }

    static func describe(_ error: any Error) -> JSONValue {
        guard let error = error as? TaskBoardError else { return ["code": "cancelled"] }
        switch error {
        case .signedOut: return ["code": "signedOut"]
        case .sessionEnded: return ["code": "sessionEnded"]
        case .badCredentials: return ["code": "badCredentials"]
        case .server(let status): return ["code": "server", "status": .number(Double(status))]
        case .badBody: return ["code": "badBody"]
        case .network: return ["code": "network"]
        }
    }

    func snapshot() async -> JSONValue {
        let signedIn = await model.client.isSignedIn
        return await MainActor.run {
            [
                "screen": .string(model.screen.rawValue), "account": model.account.map { .string($0.id) } ?? .null,
                "tasks": .number(Double(model.tasks.count)), "signedIn": .bool(signedIn),
            ]
        }
    }

    func alerts() async -> [JSONValue] {
        await MainActor.run { model.alerts.map { ["title": .string($0.title), "message": .string($0.message)] } }
    }

    func timeline() async -> [JSONValue] {
        await MainActor.run { model.timeline.map { .string($0.rawValue) } }
    }
}
