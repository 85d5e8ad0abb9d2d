import Foundation
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

    func export(keepSecrets: Bool = false) throws -> (PactExport, JSONValue) {
        let folder = try ContractFolder()
        let (scenario, root) = try folder.scenario(exchanges: Self.exchanges)
        var export = PactExport(consumer: "My App", provider: "backend")
        export.add(scenario, root: root)
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

    @Test func eachAnswerIsAnInteractionWithItsScenarioAsProviderState() throws {
        let (export, pact) = try export()
        let interactions = try #require(pact["interactions"]?.arrayValue)
        #expect(interactions.count == 4)
        #expect(export.leftOut.map(\.exchange) == ["fault", "any", "skip"])
        let json = interactions[0]
        #expect(json["providerStates"] == [["name": "n"]] && json["description"] == "n: json")
        #expect(json["response"]?["matchingRules"]?["body"]?["$.data.access_token"] == ["combine": "AND", "matchers": [["match": "type"]]])
        #expect(
            json["response"]?["matchingRules"]?["body"]?["$.data.users"] == ["combine": "AND", "matchers": [["match": "type", "min": 0]]])
        #expect(json["response"]?["matchingRules"]?["body"]?["$.data.users[*].tags[*]"] != nil)
        #expect(json["response"]?["matchingRules"]?["body"]?["$.data['odd key']"] != nil)
        let pattern = interactions[1]["request"]
        #expect(pattern?["path"] == "/users/id/block" && pattern?["query"] == ["why": ["spam"]])
        #expect(pattern?["matchingRules"]?["path"]?["matchers"]?.arrayValue?.first?["regex"] == "^/users/[^/]+/block$")
        #expect(pattern?["generators"]?["path"] == ["type": "ProviderState", "expression": "/users/${id}/block"])
        let text = interactions[2]
        #expect(text["request"]?["body"]?["content"] == "email=a%40b.c" && text["response"]?["headers"]?["Retry-After"] == ["120"])
        #expect(
            interactions[3]["response"]?["body"]?["encoded"] == "base64"
                && interactions[3]["response"]?["body"]?["contentTypeHint"] == "BINARY")
    }

    @Test func secretsBecomePlaceholdersUnlessKept() throws {
        let text = try export().1.compactText
        for secret in ["hunter2-Secret", "acc-XYZ-123"] { #expect(!text.contains(secret), "\(secret) leaked") }
        #expect(text.contains("redacted-password-1") && text.contains("redacted-token-"))
        #expect(try export(keepSecrets: true).1.compactText.contains("acc-XYZ-123"))
    }

    @Test func theWholeCorpusExportsByTheRules() throws {
        var export = PactExport(consumer: "SessionKit", provider: "backend")
        var files = 0
        let discovered = try ScenarioDiscovery.find([Self.corpus.path])
        for found in discovered {
            // The corpus loads with SessionKit's vocabulary; its exchanges need no more than the format.
            let original = try JSONTextParser(data: Data(contentsOf: URL(fileURLWithPath: found.path)), file: found.path).parseDocument()
            let text = Self.exchangesOnly(original)
            let scenario = try ScenarioLoader(actions: [], givenKeys: []).load(data: Data(text.utf8), file: found.path, id: found.id).get()
            export.add(scenario, root: try JSONTextParser(data: Data(text.utf8), file: found.path).parseDocument())
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
