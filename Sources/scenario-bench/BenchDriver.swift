import Foundation
import HTTPCore
import ScenarioKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The least a driver can be, so the engine's own cost per exchange shows apart from a stack's:
/// `send` makes `count` requests one after another; `poll` ticks on the clock every 15 s; `fetch`
/// sends one request through a URLSession it makes, as most stacks do.
struct BenchDriver: ScenarioDriver {
    var name: String { "Bench" }
    var actions: [ActionSpec] {
        [
            ActionSpec("send", "send requests in a row", arguments: [ArgumentSpec("count", .integer, required: true, "how many")]),
            ActionSpec("poll", "tick every 15 s of virtual time until the run ends"),
            ActionSpec("fetch", "one request through a URLSession of its own, made from the run's configuration"),
        ]
    }
    var givenKeys: [GivenSpec] { [] }

    func makeSession(_ context: DriverContext) async throws -> any DriverSession { BenchSession(context: context) }
}

final class BenchSession: DriverSession, @unchecked Sendable {
    let context: DriverContext
    private var poller: Task<Void, Never>?

    init(context: DriverContext) { self.context = context }

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        switch action {
        case "send":
            let count = Int(arguments["count"]?.numberValue ?? 0)
            for _ in 0..<count {
                _ = try? await context.transport.send(HTTPRequest(method: .get, path: "/ping"))
            }
            return .value(.null)
        case "poll":
            let clock = context.clock
            poller = Task {
                while (try? await clock.sleep(for: .seconds(15))) != nil {}
            }
            return .value(.null)
        case "fetch":
            let session = URLSession(configuration: context.urlSessionConfiguration())
            defer { session.finishTasksAndInvalidate() }
            let ok = (try? await session.data(from: context.baseURL.appendingPathComponent("ping"))) != nil
            return ok ? .value(.null) : .error(["code": "failed"])
        default:
            return .error(["code": "unknownAction"])
        }
    }

    func snapshot() async -> JSONValue { .object([:]) }
    func alerts() async -> [JSONValue] { [] }
    func timeline() async -> [JSONValue] { [] }
}
