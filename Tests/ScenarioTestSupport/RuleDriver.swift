import Foundation
import HTTPCore
import ScenarioEngine

/// A stack for the rule tests: each action does one thing a scenario can observe (send a
/// request as written, set a state field, show an alert, note a timeline event, fail), so a
/// test can make the stack do exactly the right thing, or exactly the wrong one.
package struct RuleDriver: ScenarioDriver {
    package init() {}
    package var name: String { "Rules" }
    package static let actionSpecs: [ActionSpec] = [
        ActionSpec(
            "send", "send one request as written",
            arguments: [
                ArgumentSpec("method", .string, "method, GET by default"),
                ArgumentSpec("path", .string, required: true, "path"),
                ArgumentSpec("query", .object, "query items"),
                ArgumentSpec("headers", .object, "header fields"),
                ArgumentSpec("json", .any, "a JSON body"),
                ArgumentSpec("text", .string, "a text body"),
            ]),
        ActionSpec(
            "set", "set a field of the state",
            arguments: [ArgumentSpec("key", .string, required: true, "key"), ArgumentSpec("value", .any, "value; null removes")]),
        ActionSpec("alert", "show an alert", arguments: [ArgumentSpec("title", .string, required: true, "title")]),
        ActionSpec("note", "add a timeline event", arguments: [ArgumentSpec("event", .string, required: true, "event")]),
        ActionSpec("fail", "fail with an error code", arguments: [ArgumentSpec("code", .string, required: true, "code")]),
        ActionSpec("sleep", "sleep on the clock", arguments: [ArgumentSpec("seconds", .number, required: true, "seconds")]),
        ActionSpec("now", "the clock's date, in seconds since 1970"),
    ]
    package var actions: [ActionSpec] { Self.actionSpecs }
    package var givenKeys: [GivenSpec] { [] }

    package func makeSession(_ context: DriverContext) async throws -> any DriverSession { RuleSession(context: context) }
}

package actor RuleSession: DriverSession {
    package let context: DriverContext
    package var state = JSONObject()
    package var shownAlerts: [JSONValue] = []
    package var events: [JSONValue] = []

    package init(context: DriverContext) { self.context = context }

    package func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        switch action {
        case "send":
            var headers = HTTPFields()
            for member in arguments["headers"]?.objectValue ?? [:] {
                headers.append(name: member.key, value: member.value.stringValue ?? "")
            }
            let query = (arguments["query"]?.objectValue ?? [:]).map { HTTPRequest.QueryItem(name: $0.key, value: $0.value.stringValue) }
            var body: Data?
            if let json = arguments["json"] { body = json.data }
            if let text = arguments["text"]?.stringValue { body = Data(text.utf8) }
            let request = HTTPRequest(
                method: HTTPMethod(rawValue: arguments["method"]?.stringValue ?? "GET"), path: arguments["path"]?.stringValue ?? "/",
                query: query, headers: headers, body: body)
            do {
                let response = try await context.transport.send(request)
                return .value([
                    "status": .number(Double(response.status.code)), "at": .string(context.clock.now.description),
                ])
            } catch let error as TransportError {
                return .error(["code": .string(error.code.rawValue)])
            } catch {
                return .error(["code": "other"])
            }
        case "set":
            state[arguments["key"]?.stringValue ?? ""] = arguments["value"] == .null ? nil : arguments["value"]
            return .value(.null)
        case "alert":
            shownAlerts.append(["title": arguments["title"] ?? .null])
            return .value(.null)
        case "note":
            events.append(arguments["event"] ?? .null)
            return .value(.null)
        case "fail":
            return .error(["code": arguments["code"] ?? .null, "message": "failed on purpose"])
        case "sleep":
            try? await context.clock.sleep(for: .seconds(arguments["seconds"]?.numberValue ?? 0))
            events.append(.string("woke at \(context.clock.now)"))
            return .value(["at": .string(context.clock.now.description)])
        case "now":
            return .value(["seconds": .number(context.clock.date.timeIntervalSince1970)])
        default:
            return .error(["code": "unknownAction"])
        }
    }

    package func snapshot() async -> JSONValue { .object(state) }
    package func alerts() async -> [JSONValue] { shownAlerts }
    package func timeline() async -> [JSONValue] { events }
}

/// Loads scenario texts for the rule driver and runs them.
package enum Rules {
    package static var loader: ScenarioLoader { ScenarioLoader(actions: RuleDriver.actionSpecs, givenKeys: []) }

    /// A scenario document from its parts (JSON text of each).
    package static func document(exchanges: String = "", steps: String, expect: String? = nil, extra: String? = nil) -> String {
        var members = [#""name": "rule""#, #""description": "a rule of the engine""#]
        members.append(#""exchanges": [\#(exchanges)]"#)
        members.append(#""steps": [\#(steps)]"#)
        if let expect {
            members.append(#""expect": \#(expect)"#)
        } else if exchanges.isEmpty, steps.isEmpty, !(extra ?? "").contains("\"expect\"") {
            members.append(#""expect": { "requests": { "total": 0 } }"#)  // one that checks nothing is refused
        }
        if let extra { members.append(extra) }
        return "{\n" + members.joined(separator: ",\n") + "\n}"
    }

    package static func load(_ text: String) -> Result<Scenario, LoadFailure> {
        loader.load(data: Data(text.utf8), file: "/rules/rule.json", id: "rule")
    }

    /// The messages of the issues the loader finds in `text` (empty when it loads).
    package static func issues(_ text: String) -> [String] {
        switch load(text) {
        case .success: []
        case .failure(let failure): failure.issues.map(\.message)
        }
    }

    package static func run(_ text: String, options: RunPlan = RunPlan()) async throws -> ScenarioResult {
        let scenario = try load(text).get()
        return await ScenarioRunner(driver: RuleDriver(), plan: options).run(scenario)
    }

    /// Runs the scenario `document(exchanges:steps:expect:)` and returns it.
    package static func run(exchanges: String = "", steps: String, expect: String? = nil, extra: String? = nil) async throws
        -> ScenarioResult
    {
        try await run(document(exchanges: exchanges, steps: steps, expect: expect, extra: extra))
    }
}

extension ScenarioResult {
    /// The labels of the failed checks, for messages.
    package var failedLabels: [String] { failures.map(\.label) }
    /// Everything a failure says, for messages and for finding a secret.
    package var failureText: String {
        failures.map { [$0.message, $0.expected ?? "", $0.actual ?? "", $0.diff ?? ""].joined(separator: "\n") }.joined(separator: "\n")
            + (errorMessage ?? "")
    }
}

extension ScriptedBackend {
    /// The transcript so far, unmasked, one line per event that has one.
    package var transcriptLines: [String] {
        let record = runRecord
        return record.events.map { Transcript.line($0, in: record) }.filter { !$0.isEmpty }
    }
}
