import Foundation
import ScenarioEngine

/// The profile stack's driver, written with the driver kit's completion bridge: each action is
/// one `withCompletion`, each observation one `onMainQueue`; no continuation, and the app's
/// non-`Sendable` `Profile` never leaves the main queue.
struct ProfileAppDriver: ScenarioDriver {
    /// Builds the store with its planted bug.
    var keepsProfileAfter401 = false

    var name: String { "ProfileApp" }
    var actions: [ActionSpec] {
        [
            ActionSpec(
                "signIn", "POST /session; stores the token",
                arguments: [
                    ArgumentSpec("email", .string, required: true, "the email"),
                    ArgumentSpec("password", .string, required: true, "the password"),
                ]),
            ActionSpec("loadProfile", "GET /me"),
            ActionSpec("rename", "PATCH /me", arguments: [ArgumentSpec("name", .string, required: true, "the new name")]),
            ActionSpec("signOut", "forgets the token and the profile"),
        ]
    }
    var givenKeys: [GivenSpec] { [GivenSpec("token", .string, "a stored access token")] }

    func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let token = context.given["token"]?.stringValue
        let client = ProfileClient(configuration: context.urlSessionConfiguration(), base: context.baseURL, token: token)
        return ProfileAppSession(store: ProfileStore(client: client, signedIn: token != nil, keepsProfileAfter401: keepsProfileAfter401))
    }
}

private struct ProfileAppSession: DriverSession {
    let store: ProfileStore

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        switch action {
        case "signIn":
            let (email, password) = (arguments["email"]?.stringValue ?? "", arguments["password"]?.stringValue ?? "")
            return await withCompletion {
                store.signIn(email: email, password: password, completion: $0)
            } onMainQueue: {
                Self.answer($0)
            }
        case "loadProfile":
            return await withCompletion {
                store.loadProfile(completion: $0)
            } onMainQueue: {
                Self.answer($0)
            }
        case "rename":
            let name = arguments["name"]?.stringValue ?? ""
            return await withCompletion {
                store.rename(to: name, completion: $0)
            } onMainQueue: {
                Self.answer($0)
            }
        case "signOut":
            return await withCompletion { done in
                store.signOut { done(()) }
            } onMainQueue: {
                .value(nil)
            }
        default:
            return .error(["code": "unknownAction"])
        }
    }

    /// The profile as JSON, or the failure's code.
    static func answer(_ result: Result<Profile, ProfileError>) -> ActionResult {
        switch result {
        case .success(let profile): .value(["id": .string(profile.id), "name": .string(profile.name)])
        case .failure(.server(let status)): .error(["code": "server", "status": .number(Double(status))])
        case .failure(let error): .error(["code": .string("\(error)")])
        }
    }

    func snapshot() async -> JSONValue {
        await onMainQueue {
            [
                "signedIn": .bool(store.signedIn), "tokens": ["access": store.signedIn ? "present" : "absent"],
                "profile": store.profile.map { ["id": .string($0.id), "name": .string($0.name)] } ?? .null,
                "offMainCalls": .number(Double(store.offMainCalls)),
            ]
        }
    }

    func alerts() async -> [JSONValue] { await onMainQueue { store.alerts.map { ["title": .string($0)] } } }
    func timeline() async -> [JSONValue] { await onMainQueue { store.timeline.map { .string($0) } } }
}
