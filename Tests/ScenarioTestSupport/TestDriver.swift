import Foundation
import HTTPCore
import ScenarioEngine

/// A small stack for engine tests: it sends requests, sleeps on the clock, counts, and keeps
/// a background poller, all through what the context gives it.
package struct TestDriver: ScenarioDriver {
    package init() {}
    package var name: String { "Test" }
    package var actions: [ActionSpec] {
        [
            ActionSpec("get", "GET a path", arguments: [ArgumentSpec("path", .string, required: true, "path")]),
            ActionSpec("sleep", "sleep on the clock", arguments: [ArgumentSpec("seconds", .number, required: true, "seconds")]),
            ActionSpec("poll", "start a background poller"),
            ActionSpec("bump", "count one and alert"),
            ActionSpec("hang", "wait on a continuation nothing resumes"),
        ]
    }
    package var givenKeys: [GivenSpec] { [] }

    package func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        TestSession(context: context)
    }
}

package actor TestSession: DriverSession {
    package let context: DriverContext
    package var count = 0
    package var polls = 0
    package var events: [JSONValue] = []
    package var poller: Task<Void, Never>?

    package init(context: DriverContext) { self.context = context }

    package func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        switch action {
        case "get":
            do {
                let response = try await context.transport.send(HTTPRequest(method: .get, path: arguments["path"]?.stringValue ?? "/"))
                events.append(.string("got \(response.status.code)"))
                return .value(["status": .number(Double(response.status.code)), "at": .string(context.clock.now.description)])
            } catch let error as TransportError {
                return .error(["code": .string(error.code.rawValue)])
            } catch {
                return .error(["code": "other"])
            }
        case "sleep":
            try? await context.clock.sleep(for: .seconds(arguments["seconds"]?.numberValue ?? 0))
            return .value(["at": .string(context.clock.now.description)])
        case "poll":
            let clock = context.clock
            poller = Task { [weak self] in
                while !Task.isCancelled {
                    do { try await clock.sleep(for: .seconds(10)) } catch { return }
                    await self?.tick()
                }
            }
            return .value(.null)
        case "bump":
            count += 1
            return .value(["count": .number(Double(count))])
        case "hang":
            // Never resumed: the runner must report it instead of hanging.
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
            return .value(.null)
        default:
            return .error(["code": "unknownAction"])
        }
    }

    package func tick() { polls += 1 }

    package func snapshot() async -> JSONValue {
        ["count": .number(Double(count)), "polls": .number(Double(polls)), "secret": nil]
    }

    package func alerts() async -> [JSONValue] { count > 0 ? [["title": "Bumped", "message": .string("\(count)")]] : [] }
    package func timeline() async -> [JSONValue] { events }
}

/// Builds scenarios in code, with locations that point nowhere in particular.
package enum Build {
    package static let here = ScenarioLocation(file: "test.json", line: 1, column: 1, path: "$")

    package static func call(_ action: String, _ arguments: JSONValue = .object([:])) -> ActionCall {
        ActionCall(action: action, arguments: arguments, location: here)
    }

    package static func step(_ kind: Step.Kind, name: String? = nil) -> Step { Step(name: name, kind: kind, location: here) }

    package static func exchange(
        _ id: String, path: String, status: Int = 200, json: JSONValue? = nil, times: Int? = 1,
        latency: Duration = .zero, release: ReleaseCondition? = nil, after: [String] = [],
        headers: HTTPFields = [:], fault: TransportError.Code? = nil, optional: Bool = false
    ) -> Exchange {
        let reply: Reply =
            fault.map(Reply.fault)
            ?? .response(
                HTTPResponse(
                    status: HTTPStatus(code: status), headers: headers, body: json?.data ?? Data()))
        return Exchange(
            id: id, request: RequestMatcher(method: .get, path: .exact(path)), reply: reply, times: times,
            after: after, latency: latency, release: release, optional: optional, location: here)
    }

    package static func scenario(
        exchanges: [Exchange] = [], steps: [Step], expect: Expectations = Expectations(),
        relax: Relaxations = Relaxations(), timeLimit: Duration = Scenario.defaultTimeLimit, given: JSONValue = .object([:])
    ) -> Scenario {
        Scenario(
            id: "test", name: "test", description: "engine test", file: "test.json", location: here, given: given,
            exchanges: exchanges, steps: steps, expect: expect, relax: relax, timeLimit: timeLimit)
    }
}

/// A test stack with nothing to show but its actions' answers.
package protocol ActionOnlySession: DriverSession {}

extension ActionOnlySession {
    package func snapshot() async -> JSONValue { [:] }
    package func alerts() async -> [JSONValue] { [] }
    package func timeline() async -> [JSONValue] { [] }
}

extension Build {
    /// Runs a scenario of one step that performs `action` and expects `value` as its answer.
    package static func runOne(
        _ action: String, expecting value: JSONValue, with driver: any ScenarioDriver, start: Date = Scenario.defaultClockStart
    ) async -> ScenarioResult {
        var scenario = Build.scenario(steps: [Build.step(.perform(Build.call(action), parallel: 1, expect: .value(value)))])
        scenario.clockStart = start
        return await ScenarioRunner(driver: driver).run(scenario)
    }
}
