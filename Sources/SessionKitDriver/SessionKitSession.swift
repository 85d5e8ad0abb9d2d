import Foundation
import HTTPCore
import ScenarioKit
import SessionKit

/// One SessionKit stack under test.
struct SessionKitSession: DriverSession {
    let stack: SessionStack
    let connectivity: ManualConnectivity

    typealias Value = ScenarioKit.JSONValue

    func perform(_ action: String, arguments: Value) async -> ActionResult {
        if action == "forgotPassword" { return await forgotPassword(arguments["email"]?.stringValue ?? "") }
        do {
            return .value(try await dispatch(action, arguments))
        } catch {
            return .error(Self.describe(error))
        }
    }

    // One switch maps every catalogued action to the stack; arguments were checked on load.
    private func dispatch(_ action: String, _ arguments: Value) async throws(APIError) -> Value {
        let string = { (key: String) in arguments[key]?.stringValue ?? "" }
        switch action {
        case "bootstrap":
            await stack.auth.bootstrap()
            return ["auth": .string(await stack.auth.state.rawValue)]
        case "login":
            return Self.user(try await stack.auth.login(email: string("email"), password: string("password")))
        case "register":
            return Self.user(try await stack.auth.register(name: string("name"), email: string("email"), password: string("password")))
        case "logout":
            await stack.auth.logout()
            return .null
        case "resetBlockedGuard":
            await stack.auth.resetBlockGuard()
            return .null
        case "request":
            let query = (arguments["query"]?.objectValue ?? JSONObject()).map {
                HTTPRequest.QueryItem(name: $0.key, value: $0.value.stringValue ?? $0.value.compactText)
            }
            let body = arguments["json"].map(Self.toSessionKit)
            let method = HTTPMethod(rawValue: arguments["method"]?.stringValue ?? "GET")
            let response = try await stack.request(
                method: method, path: string("path"), query: query, body: body, authenticated: arguments["auth"]?.boolValue ?? true)
            return response.map(Self.fromSessionKit) ?? .null
        case "loadUser":
            return Self.user(try await stack.user.loadUser())
        case "updateUser":
            var fields: [String: SessionKit.JSONValue] = [:]
            for (key, value) in arguments["fields"]?.objectValue ?? JSONObject() { fields[key] = Self.toSessionKit(value) }
            return Self.user(try await stack.user.updateUser(fields))
        case "deleteAccount":
            try await stack.user.deleteAccount()
            return .null
        case "relatedUsers":
            return .array(try await stack.user.relatedUsers().map(Self.summary))
        case "sendCode":
            try await stack.verification.sendCode(phone: string("phone"), region: string("region"))
            return .null
        case "verify":
            return try await stack.verification.verify(code: string("code")).map(Self.user) ?? .null
        case "resend":
            try await stack.verification.resend()
            return .null
        case "back":
            await stack.verification.back()
            return .null
        case "requestSignOut":
            await stack.verification.requestSignOut()
            return .null
        case "confirmSignOut":
            await stack.verification.confirmSignOut()
            return .null
        case "cancelSignOut":
            await stack.verification.cancelSignOut()
            return .null
        case "block":
            try await stack.blocking.block(string("id"))
            return .null
        case "unblock":
            try await stack.blocking.unblock(string("id"))
            return .null
        case "loadBlocked":
            return .array(try await stack.blocking.listBlocked().map(Value.string))
        case "search":
            return .array(try await stack.blocking.search(string("q")).map(Self.summary))
        case "feed":
            return .array(try await stack.blocking.feed().map { ["id": .string($0.id), "authorId": .string($0.authorID)] })
        case "checkHealth":
            return .string(await stack.health.check().rawValue)
        case "startHealthPolling":
            await stack.health.startPolling()
            return .null
        case "enterBackground":
            await stack.health.enterBackground()
            return .null
        case "enterForeground":
            await stack.health.enterForeground()
            return .null
        case "setConnectivity":
            await connectivity.setOnline(string("state") == "online")
            return .null
        default:
            // The loader rejects unknown actions; this guards drivers used without it.
            throw .notFound
        }
    }

    /// The reset flow answers with an outcome, not a throw: its alert is part of the result.
    private func forgotPassword(_ email: String) async -> ActionResult {
        switch await stack.passwordReset.request(email: email) {
        case .sent(let message):
            return .value(["message": .string(message)])
        case .rejected(let alert):
            let code: Value =
                switch alert.title {
                case PasswordResetMessages.cooldownTitle: "cooldown"
                case PasswordResetMessages.emailRequiredTitle: "emailRequired"
                case PasswordResetMessages.invalidEmailTitle: "invalidEmail"
                default: "rejected"
                }
            return .error(["code": code, "alert": Self.alert(alert)])
        case .failed(let error, let alert):
            var described = Self.describe(error).objectValue ?? JSONObject()
            described["alert"] = Self.alert(alert)
            return .error(.object(described))
        }
    }

    func snapshot() async -> Value {
        let snapshot = await stack.snapshot()
        var out = JSONObject()
        out["auth"] = .string(snapshot.auth.rawValue)
        out["screen"] = .string(snapshot.screen.rawValue)
        out["startupMessage"] = snapshot.startupMessage.map(Value.string)
        out["user"] = snapshot.user.map {
            ["id": .string($0.id), "name": .string($0.name), "email": .string($0.email), "active": .bool($0.active)]
        }
        // Presence only: token values never leave the stack.
        var tokens = JSONObject()
        if snapshot.tokens.hasAccessToken { tokens["access"] = .bool(true) }
        if snapshot.tokens.hasRefreshToken { tokens["refresh"] = .bool(true) }
        out["tokens"] = .object(tokens)
        out["health"] = .string(snapshot.health.rawValue)
        let verification = snapshot.verification
        var verificationObject: JSONObject = [
            "codeSent": .bool(verification.codeSent), "canResend": .bool(verification.canResend),
            "countdown": .number(Double(verification.countdown)), "hasVerificationId": .bool(verification.hasVerificationID),
            "loading": .bool(verification.loading),
        ]
        verificationObject["error"] = verification.error.map(Value.string)
        out["verification"] = .object(verificationObject)
        out["blockedIds"] = .array(snapshot.blockedIDs.map(Value.string))
        out["preferences"] = Self.sortedObject(snapshot.preferences)
        out["syncMarkers"] = Self.sortedObject(snapshot.syncMarkers)
        out["passwordResetCooldown"] = .number(Double(snapshot.passwordResetCooldownSeconds))
        return .object(out)
    }

    func alerts() async -> [Value] {
        await stack.alerts.emitted().map(Self.alert)
    }

    func timeline() async -> [Value] {
        await stack.snapshot().timeline.map { .string($0.rawValue) }
    }

    // MARK: - Mapping

    /// An error as scenarios see it: a stable `code` plus what the case carries.
    static func describe(_ error: any Error) -> Value {
        guard let error = error as? APIError else { return ["code": "unexpected", "message": .string("\(error)")] }
        var out: JSONObject = ["code": .string(error.code), "message": .string(error.description)]
        switch error {
        case .rateLimited(let message, let retryAfter):
            out["serverMessage"] = .string(message)
            out["retryAfter"] = retryAfter.map(Self.seconds)
        case .serviceUnavailable(let retryAfter):
            out["retryAfter"] = retryAfter.map(Self.seconds)
        case .validationFailed(let errors):
            out["errors"] = .array(errors.map { ["field": $0.field.map(Value.string) ?? .null, "message": .string($0.message)] })
        case .badRequest(let message):
            out["serverMessage"] = .string(message)
        case .serverError(let status), .unexpectedStatus(let status):
            out["status"] = .number(Double(status))
        case .transport(let code):
            out["reason"] = .string(code.rawValue)
        default:
            break
        }
        return .object(out)
    }

    static func alert(_ alert: SessionAlert) -> Value {
        [
            "title": .string(alert.title), "message": .string(alert.message),
            "actions": .array(alert.actions.map { ["title": .string($0.title), "role": .string($0.role.rawValue)] }),
        ]
    }

    static func seconds(_ duration: Duration) -> Value {
        let components = duration.components
        return .number(Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }

    static func user(_ user: SessionUser) -> Value {
        ["id": .string(user.id), "name": .string(user.name), "email": .string(user.email), "active": .bool(user.active)]
    }

    static func summary(_ user: UserSummary) -> Value {
        ["id": .string(user.id), "name": .string(user.name)]
    }

    static func sortedObject(_ dictionary: [String: String]) -> Value {
        .object(JSONObject(dictionary.keys.sorted().map { ($0, .string(dictionary[$0] ?? "")) }))
    }

    static func toSessionKit(_ value: Value) -> SessionKit.JSONValue {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .number(let number): .number(number)
        case .string(let string): .string(string)
        case .array(let elements): .array(elements.map(toSessionKit))
        case .object(let object):
            .object(Dictionary(object.map { ($0.key, toSessionKit($0.value)) }, uniquingKeysWith: { $1 }))
        }
    }

    static func fromSessionKit(_ value: SessionKit.JSONValue) -> Value {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .number(let number): .number(number)
        case .string(let string): .string(string)
        case .array(let elements): .array(elements.map(fromSessionKit))
        case .object(let object):
            // Sorted: SessionKit's dictionary has no order, and results must print the same every run.
            .object(JSONObject(object.keys.sorted().map { ($0, fromSessionKit(object[$0] ?? .null)) }))
        }
    }
}
