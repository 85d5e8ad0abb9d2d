import Foundation
import NotesKit
import ScenarioKit

/// Binds scenarios to the notes screen.
public struct NotesDriver: ScenarioDriver {
    /// Creates the driver.
    public init() {}

    /// Shown in reports.
    public var name: String { "Notes" }
    /// What scenarios can do.
    public var actions: [ActionSpec] { [ActionSpec("refresh", "Pull to refresh: GET /notes")] }
    /// What `given` may hold.
    public var givenKeys: [GivenSpec] { [GivenSpec("token", .string, "the stored access token")] }

    /// Builds the notes screen on the scenario's own URLSession configuration.
    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let token = context.given["token"]?.stringValue ?? "none"
        let configuration = context.urlSessionConfiguration()
        let baseURL = context.baseURL
        let store = await MainActor.run { NotesStore(configuration: configuration, baseURL: baseURL, token: token) }
        return NotesSession(store: store)
    }
}

struct NotesSession: DriverSession {
    let store: NotesStore

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        guard action == "refresh" else { return .error(["code": "unknownAction"]) }
        await store.refresh()
        return .value(.null)
    }

    func snapshot() async -> JSONValue {
        await MainActor.run {
            ["signedIn": .bool(store.signedIn), "notes": .array(store.notes.map(JSONValue.string))]
        }
    }

    func alerts() async -> [JSONValue] { await MainActor.run { store.alerts.map(JSONValue.string) } }
    func timeline() async -> [JSONValue] { [] }
}
