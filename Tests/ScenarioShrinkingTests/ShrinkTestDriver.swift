import Foundation
import HTTPCore
import ScenarioTestSupport

@testable import ScenarioEngine

/// A stack for shrink tests: `get` sends one request and answers its status, `later` sends one
/// after sleeping on the clock, and `flaky` fails every other time it runs in this process (a
/// failure that does not repeat). `given.profile` takes anything.
struct ShrinkTestDriver: ScenarioDriver {
    var name: String { "Shrink" }
    var actions: [ActionSpec] {
        [
            ActionSpec("get", "GET a path", arguments: [ArgumentSpec("path", .string, required: true, "path")]),
            ActionSpec(
                "later", "sleep, then GET a path",
                arguments: [
                    ArgumentSpec("seconds", .number, required: true, "how long to sleep first"),
                    ArgumentSpec("path", .string, required: true, "path"),
                ]),
            ActionSpec("flaky", "fails every other run of this process"),
        ]
    }
    var givenKeys: [GivenSpec] { [GivenSpec("profile", .object, "anything")] }

    /// How many times `flaky` ran in this process.
    static let flakyRuns = RunCounter()

    func makeSession(_ context: DriverContext) async throws -> any DriverSession { Session(context: context) }

    private struct Session: ActionOnlySession {
        let context: DriverContext

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            switch action {
            case "get":
                return await get(arguments["path"]?.stringValue ?? "/")
            case "later":
                try? await context.clock.sleep(for: .seconds(arguments["seconds"]?.numberValue ?? 0))
                return await get(arguments["path"]?.stringValue ?? "/")
            case "flaky":
                return ShrinkTestDriver.flakyRuns.next() % 2 == 0 ? .value(["status": 200]) : .value(["status": 500])
            default:
                return .error(["code": "unknownAction"])
            }
        }

        private func get(_ path: String) async -> ActionResult {
            do {
                let response = try await context.transport.send(HTTPRequest(method: .get, path: path))
                return .value(["status": .number(Double(response.status.code))])
            } catch {
                return .error(["code": "transport"])
            }
        }
    }
}
