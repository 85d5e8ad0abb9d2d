import Foundation
import Messenger
import ScenarioKit

/// One messenger for one scenario run: actions call the model, observations read it on the main
/// actor.
struct MessengerSession: DriverSession {
    let model: MessengerModel

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        let text = { (name: String) in arguments[name]?.stringValue ?? "" }
        do {
            switch action {
            case "launch":
                await model.launch()
                return .value(["screen": .string(await MainActor.run { model.screen.rawValue })])
            case "signIn":
                try await model.signIn(email: text("email"), password: text("password"))
                return .value(nil)
            case "openInbox":
                try await model.openInbox()
                return .value(["conversations": .number(Double(await MainActor.run { model.conversations }))])
            case "sendMessage":
                try await model.send(text("text"), to: text("conversation"))
                return .value(nil)
            case "signOut":
                await model.signOut()
                return .value(nil)
            case "request":
                let query = (arguments["query"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map {
                    URLQueryItem(name: $0.key, value: $0.value.stringValue)
                }
                let json = arguments["json"]?.objectValue.map { object in
                    Dictionary(object.members.map { ($0.key, $0.value.stringValue ?? $0.value.compactText) }) { $1 }
                }
                let body = try await model.services.api.send(
                    (arguments["method"]?.stringValue ?? "GET").uppercased(), text("path"), query: query, json: json)
                return .value(["body": JSONValue.parse(body) ?? .null])
            default:
                return .error(["code": "unknownAction", "action": .string(action)])
            }
        } catch {
            return .error(Self.describe(error))
        }
    }

    static func describe(_ error: any Error) -> JSONValue {
        guard let error = error as? ChatError else { return ["code": "cancelled"] }
        switch error {
        case .signedOut: return ["code": "signedOut"]
        case .sessionEnded: return ["code": "sessionEnded"]
        case .badCredentials: return ["code": "badCredentials"]
        case .cancelled: return ["code": "cancelled"]
        case .server(let status): return ["code": "server", "status": .number(Double(status))]
        case .badBody: return ["code": "badBody"]
        case .network: return ["code": "network"]
        }
    }

    func snapshot() async -> JSONValue {
        let signedIn = await model.services.credentials.current != nil
        return await MainActor.run {
            [
                "screen": .string(model.screen.rawValue), "conversations": .number(Double(model.conversations)),
                "unread": .number(Double(model.unread)), "signedIn": .bool(signedIn),
            ]
        }
    }

    func alerts() async -> [JSONValue] {
        await MainActor.run { model.alerts.map { ["message": .string($0)] } }
    }

    func timeline() async -> [JSONValue] {
        await MainActor.run { model.timeline.map { .string($0.rawValue) } }
    }
}
