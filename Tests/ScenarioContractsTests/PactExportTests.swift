import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine

/// The Pact export follows the v4 specification's rules (``PactV4Rules``), keeps each scripted
/// answer as an interaction with its scenario as provider state, and gives secrets placeholders.
@Suite struct PactExportTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")

    static let exchanges = [
        #"{ "id": "json", "request": { "method": "POST", "path": "/auth/login", "json": { "email": "a@b.c", "password": "hunter2-Secret" } }, "response": { "status": 200, "json": { "success": true, "data": { "access_token": "acc-XYZ-123", "users": [{ "id": "u1", "tags": ["a"] }], "odd key": null } } } }"#,
        #"{ "id": "pattern", "request": { "method": "DELETE", "pathPattern": "/users/{id}/block", "query": { "why": "spam" } }, "response": { "status": 204 } }"#,
        #"{ "id": "text", "request": { "method": "POST", "path": "/auth/password/forgot", "headers": { "Content-Type": "application/x-www-form-urlencoded" }, "text": "email=a%40b.c" }, "response": { "status": 503, "headers": { "Retry-After": "120", "Content-Type": "text/plain" }, "text": "busy" } }"#,
        #"{ "id": "bytes", "request": { "method": "GET", "path": "/avatar" }, "response": { "status": 200, "headers": { "Content-Type": "image/png" }, "base64": "iVBORw0KGgo=" } }"#,
        #"{ "id": "fault", "request": { "method": "GET", "path": "/feed" }, "fault": "timedOut" }"#,
        #"{ "id": "any", "request": { "path": "/feed" }, "response": { "status": 200 } }"#,
        #"{ "id": "skip", "verify": { "skip": "a proxy's page" }, "request": { "method": "GET", "path": "/x" }, "response": { "status": 200 } }"#,
    ].joined(separator: ", ")

    /// A driver that knows nothing: what the export needs of one is its secret names.
    struct PlainDriver: ScenarioDriver {
        var name: String { "Plain" }
        var actions: [ActionSpec] { [] }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            throw CocoaError(.featureUnsupported)
        }
    }

    /// A run in which the app sent these requests, each served by the exchange named.
    static func record(_ sent: [(exchange: String?, request: HTTPRequest, status: Int?)]) -> RunRecord {
        var order = 0
        let requests = sent.enumerated().map { index, entry -> RunRecord.Request in
            order += 2
            let answer = entry.status.map { RunRecord.Answer(status: $0, at: .zero, order: order + 1) }
            return RunRecord.Request(
                number: index + 1, request: entry.request, exchange: entry.exchange, at: .zero, order: order, answer: answer)
        }
        return RunRecord(requests: requests)
    }

    static let login = HTTPRequest(
        method: .post, path: "/auth/login", headers: ["Content-Type": "application/json; charset=utf-8"],
        body: Data(#"{"email":"a@b.c","password":"hunter2-Secret"}"#.utf8))
    static let sent: [(exchange: String?, request: HTTPRequest, status: Int?)] = [
        ("json", login, 200),
        (
            "pattern",
            HTTPRequest(
                method: .delete, path: "/users/u2/block", query: [.init(name: "why", value: "spam")],
                headers: ["Authorization": "Bearer acc-XYZ-123"]), 204
        ),
        (
            "text",
            HTTPRequest(
                method: .post, path: "/auth/password/forgot", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("email=a%40b.c".utf8)), 503
        ),
        ("bytes", HTTPRequest(method: .get, path: "/avatar"), 200),
        ("bytes", HTTPRequest(method: .get, path: "/avatar"), 200),
    ]

    func export(keepSecrets: Bool = false, sent: [(exchange: String?, request: HTTPRequest, status: Int?)] = sent, failure: String? = nil)
        throws -> (PactExport, JSONValue)
    {
        let folder = try ContractFolder()
        let (scenario, root) = try folder.scenario(exchanges: Self.exchanges)
        var export = PactExport(consumer: "My App", provider: "backend")
        export.add(scenario, root: root, run: PactExport.Run(record: Self.record(sent), failure: failure), driver: PlainDriver())
        return (export, export.document(keepSecrets: keepSecrets, version: "0.1.0"))
    }

    @Test func theFileFollowsTheV4Rules() throws {
        let (export, pact) = try export()
        #expect(PactV4Rules.problems(in: pact).isEmpty, "\(PactV4Rules.problems(in: pact))")
        #expect(export.fileName == "My_App-backend.json")
        // And the rules are not vacuous: a file that breaks them is caught.
        var broken = pact
        if case .object(var object) = broken, case .array(var interactions)? = object["interactions"],
            case .object(var first) = interactions[0]
        {
            first["type"] = "HTTP"
            first["request"] = ["method": "get", "path": "users"]
            interactions[0] = .object(first)
            interactions.append(interactions[1])
            object["interactions"] = .array(interactions)
            broken = .object(object)
        }
        let problems = PactV4Rules.problems(in: broken)
        #expect(problems.contains { $0.contains(".type: must be Synchronous/HTTP") })
        #expect(
            problems.contains { $0.contains(".method: an HTTP method") } && problems.contains { $0.contains(".path: must start with /") })
        #expect(problems.contains { $0.contains("unique in the file") })
    }

    @Test func eachRequestTheAppSentIsAnInteraction() throws {
        let (export, pact) = try export()
        let interactions = try #require(pact["interactions"]?.arrayValue)
        // Two alike requests to the same exchange are one interaction.
        #expect(interactions.count == 4)
        #expect(export.leftOut.map(\.exchange) == ["fault", "any", "skip"])
        let login = interactions[0]
        #expect(login["description"] == "n: json" && login["providerStates"]?.arrayValue?[0]["name"] == "n: json")
        // What the app sent, with its own Content-Type, and the credential injected by the provider state.
        #expect(login["request"]?["headers"]?["Content-Type"] == ["application/json; charset=utf-8"])
        #expect(login["request"]?["body"]?["content"]?["email"] == "a@b.c")
        #expect(login["request"]?["generators"]?["body"]?["$.password"] == ["type": "ProviderState", "expression": "${password}"])
        #expect(
            login["response"]?["matchingRules"]?["body"]?["$.data.access_token"] == ["combine": "AND", "matchers": [["match": "type"]]])
        #expect(
            login["response"]?["matchingRules"]?["body"]?["$.data.users"] == ["combine": "AND", "matchers": [["match": "type", "min": 0]]])
        #expect(login["response"]?["matchingRules"]?["body"]?["$.data['odd key']"] != nil)
        let pattern = try #require(interactions[1]["request"])
        #expect(pattern["path"] == "/users/u2/block" && pattern["query"] == ["why": ["spam"]])
        #expect(pattern["matchingRules"]?["path"]?["matchers"]?.arrayValue?.first?["regex"] == "^/users/[^/]+/block$")
        #expect(pattern["generators"]?["path"] == ["type": "ProviderState", "expression": "/users/${id}/block"])
        #expect(pattern["generators"]?["header"]?["Authorization"] == ["type": "ProviderState", "expression": "Bearer ${accessToken}"])
        #expect(interactions[1]["providerStates"]?.arrayValue?[0]["params"]?["values"] == ["accessToken", "id"])
        let text = interactions[2]
        #expect(text["request"]?["body"]?["content"] == "email=a%40b.c" && text["response"]?["headers"]?["Retry-After"] == ["120"])
        #expect(text["response"]?["matchingRules"]?["header"]?["Retry-After"] != nil)
        #expect(
            interactions[3]["response"]?["body"]?["encoded"] == "base64"
                && interactions[3]["response"]?["body"]?["contentTypeHint"] == "BINARY")
    }

    @Test func theProviderStateSaysWhereTheRunStands() throws {
        let params = try #require(try export().1["interactions"]?.arrayValue?[2]["providerStates"]?.arrayValue?[0]["params"])
        #expect(params["scenario"] == "s" && params["exchange"] == "text" && params["call"] == 1)
        #expect(params["answeredBefore"] == ["json", "pattern"] && params["status"] == 503 && params["mediaType"] == "text/plain")
        // The second call of a route is another state; a token a success already took is spent.
        let refresh = HTTPRequest(
            method: .post, path: "/auth/login", headers: ["Content-Type": "application/json"],
            body: Data(#"{"refresh_token":"ref-ABC-123"}"#.utf8))
        let (_, pact) = try export(sent: [("json", refresh, 200), ("json", Self.login, 200), ("json", refresh, 200)])
        let states = try #require(pact["interactions"]?.arrayValue).map { $0["providerStates"]?.arrayValue?[0] }
        #expect(states.count == 2 && states[0]?["name"] == "n: json #1" && states[1]?["name"] == "n: json #2")
        #expect(states[0]?["params"]?["spent"] == [] && states[1]?["params"]?["call"] == 2)
        let (_, again) = try export(sent: [
            ("json", refresh, 200), ("bytes", HTTPRequest(method: .get, path: "/avatar"), 200), ("pattern", refresh, 200),
        ])
        #expect(again["interactions"]?.arrayValue?[1]["providerStates"]?.arrayValue?[0]["params"]?["spent"] == ["refreshToken"])
    }

    @Test func noContentTypeIsMadeUpAndAFailedRunExportsNothing() throws {
        let exchanges =
            #"{ "id": "plain", "request": { "method": "GET", "path": "/x" }, "response": { "status": 503, "text": "Service Unavailable" } }"#
        let folder = try ContractFolder()
        let (scenario, root) = try folder.scenario(exchanges: exchanges)
        var export = PactExport(consumer: "c", provider: "p")
        export.add(
            scenario, root: root, run: PactExport.Run(record: Self.record([("plain", HTTPRequest(method: .get, path: "/x"), 503)])),
            driver: PlainDriver())
        let body = try #require(export.document(keepSecrets: false, version: "0")["interactions"]?.arrayValue?[0]["response"]?["body"])
        #expect(body["contentType"] == nil && body["content"] == "Service Unavailable")
        let (failed, pact) = try self.export(failure: "failed")
        #expect(pact["interactions"]?.arrayValue?.isEmpty == true && failed.leftOut.contains { $0.reason.contains("the scenario failed") })
        let (unused, _) = try self.export(sent: [])
        #expect(unused.leftOut.contains { $0.exchange == "json" && $0.reason.contains("sent no request") })
    }

    @Test func secretsBecomePlaceholdersUnlessKept() throws {
        let text = try export().1.compactText
        for secret in ["hunter2-Secret", "acc-XYZ-123"] { #expect(!text.contains(secret), "\(secret) leaked") }
        #expect(text.contains("redacted-password-1") && text.contains("redacted-token-"))
        #expect(try export(keepSecrets: true).1.compactText.contains("acc-XYZ-123"))
    }

    @Test func theWholeCorpusExportsByTheRules() async throws {
        // Exported from runs by the command line: ScenarioCLITests' export-pact tests run it; here
        // every scripted answer of the corpus, served once as its matcher reads, follows the rules.
        var export = PactExport(consumer: "SessionKit", provider: "backend")
        var files = 0
        let discovered = try ScenarioDiscovery.find([Self.corpus.path])
        for found in discovered {
            let original = try JSONTextParser(data: Data(contentsOf: URL(fileURLWithPath: found.path)), file: found.path).parseDocument()
            let text = Self.exchangesOnly(original)
            let scenario = try ScenarioLoader(actions: [], givenKeys: []).load(data: Data(text.utf8), file: found.path, id: found.id).get()
            var sent: [(exchange: String?, request: HTTPRequest, status: Int?)] = []
            for exchange in scenario.exchanges {
                guard let method = exchange.request.method, case .exact(let path)? = exchange.request.path,
                    case .response(let response) = exchange.reply
                else { continue }
                sent.append((exchange.id, HTTPRequest(method: method, path: path, headers: exchange.request.headers), response.status.code))
            }
            export.add(
                scenario, root: try JSONTextParser(data: Data(text.utf8), file: found.path).parseDocument(),
                run: PactExport.Run(record: Self.record(sent)), driver: PlainDriver())
            files += 1
        }
        #expect(files == discovered.count && files > 100)
        let pact = export.document(keepSecrets: false, version: "0.1.0")
        #expect(PactV4Rules.problems(in: pact).isEmpty, "\(PactV4Rules.problems(in: pact).prefix(5))")
        #expect((pact["interactions"]?.arrayValue?.count ?? 0) > 250)
    }
    /// A scenario of the same name and exchanges, with nothing a driver must know and nothing
    /// that refers to a step (what export reads: ids, requests, answers and marks).
    static func exchangesOnly(_ root: JSONNode) -> String {
        let kept = ["id", "request", "response", "fault", "verify"]
        let exchanges = (root.value["exchanges"]?.arrayValue ?? []).map { exchange in
            JSONValue.object(JSONObject((exchange.objectValue ?? JSONObject()).filter { kept.contains($0.key) }.map { ($0.key, $0.value) }))
        }
        return JSONValue.object(
            [
                "name": root.value["name"] ?? "n", "description": "d", "exchanges": .array(exchanges), "steps": [],
                "relax": ["unusedExchanges": true],
            ]
        ).prettyText
    }
}
