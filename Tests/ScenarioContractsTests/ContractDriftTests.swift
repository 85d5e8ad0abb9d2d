import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine

/// The backend changes three answers: a member renamed, a type changed, a header made required.
/// A scenario that conformed before gets exactly those three findings, each at the scenario line
/// of what it scripts and the document line of what changed, from the YAML and the JSON form alike.
@Suite struct ContractDriftTests {
    static let scenario = """
        {
          "name": "Drift",
          "description": "Three answers as the backend sent them before it changed.",
          "exchanges": [
            { "id": "login", "request": { "method": "POST", "path": "/auth/login" },
              "response": { "status": 200, "json": { "access_token": "acc-1", "expires_in": 3600 } } },
            { "id": "me", "request": { "method": "GET", "path": "/users/me" },
              "response": { "status": 200, "json": { "id": "u1", "display_name": "Ana" } } },
            { "id": "slow", "request": { "method": "GET", "path": "/feed" },
              "response": { "status": 429, "json": { "error_code": "RATE_LIMITED" } } },
            { "id": "health", "request": { "method": "GET", "path": "/health" },
              "response": { "status": 200, "json": { "status": "ok" } } }
          ],
          "steps": [],
          "expect": { "requests": { "total": 0 } }
        }
        """

    static let before = """
        openapi: 3.1.0
        info: { title: Sessions, version: "1" }
        paths:
          /auth/login:
            post:
              responses:
                "200":
                  description: Signed in.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [access_token, expires_in]
                        properties:
                          access_token: { type: string }
                          expires_in: { type: integer }
          /users/me:
            get:
              responses:
                "200":
                  description: The user.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [id, display_name]
                        properties:
                          id: { type: string }
                          display_name: { type: string }
          /feed:
            get:
              responses:
                "429":
                  description: Slow down.
                  headers:
                    Retry-After:
                      schema: { type: integer }
                  content:
                    application/json:
                      schema: { type: object }
          /health:
            get:
              responses:
                "200":
                  description: Up.
                  content:
                    application/json:
                      schema: { type: object, required: [status] }
        """

    static let after =
        before
        .replacingOccurrences(of: "required: [id, display_name]", with: "required: [id, name]")
        .replacingOccurrences(of: "display_name: { type: string }", with: "name: { type: string }")
        .replacingOccurrences(of: "expires_in: { type: integer }", with: "expires_in: { type: string }")
        .replacingOccurrences(
            of: "Retry-After:\n              schema:", with: "Retry-After:\n              required: true\n              schema:")

    func verdict(_ document: String, name: String, folder: ContractFolder) throws -> ScenarioVerdict {
        let loaded = try folder.document(document, name: name)
        let path = try folder.write("drift.json", Self.scenario)
        let scenario = try LoaderFixtures.loader.load(data: Data(Self.scenario.utf8), file: path, id: "drift").get()
        let root = try JSONTextParser(data: Data(Self.scenario.utf8), file: path).parseDocument()
        return OpenAPIVerifier(document: loaded).verify(scenario, root: root)
    }

    @Test func theScenarioConformedBeforeTheChange() throws {
        let folder = try ContractFolder()
        let verdict = try verdict(Self.before, name: "before.yaml", folder: folder)
        #expect(verdict.outcome == .conforms, "\(verdict.findings.map(\.description))")
    }

    @Test func threeChangedAnswersGiveExactlyThreeFindingsAtTheirLines() throws {
        let folder = try ContractFolder()
        let findings = try verdict(Self.after, name: "after.yaml", folder: folder).findings
        #expect(findings.count == 3, "\(findings.map(\.description))")
        func at(_ needle: String, _ text: String, occurrence: Int = 0) -> (Int, Int) {
            ContractFixtures.position(of: needle, in: text, occurrence: occurrence)
        }
        func place(_ finding: ContractFinding?) -> (Int, Int)? { finding.map { ($0.scenario.line, $0.scenario.column) } }
        func source(_ finding: ContractFinding?) -> (Int, Int)? { finding.flatMap { $0.source.map { ($0.line, $0.column) } } }

        // The type changed: at the member the scenario scripts, and at the new `type`.
        let type = findings.first { $0.kind == .bodyRefused && $0.bodyPath == "$.expires_in" }
        #expect(place(type) ?? (0, 0) == at(#""expires_in""#, Self.scenario))
        #expect(source(type) ?? (0, 0) == at("type: string }\n", Self.after, occurrence: 1))
        #expect(type?.expected == "a string" && type?.actual == "a number 3600")
        // The member renamed: the new name is missing from the answer, which is written at "json".
        let renamed = findings.first { $0.kind == .bodyRefused && $0.bodyPath == "$" }
        #expect(place(renamed) ?? (0, 0) == at(#""json""#, Self.scenario, occurrence: 1))
        #expect(source(renamed) ?? (0, 0) == at("name]", Self.after))
        #expect(renamed?.expected == "a member 'name'")
        // The header made required: missing from the 429 the scenario scripts.
        let header = findings.first { $0.kind == .headerMissing }
        #expect(place(header) ?? (0, 0) == at(#""response""#, Self.scenario, occurrence: 2))
        #expect(source(header) ?? (0, 0) == at("Retry-After:", Self.after))
        #expect(header?.expected == "a header Retry-After")
    }

    @Test func theJSONFormOfTheChangedDocumentGivesTheSameFindings() throws {
        let folder = try ContractFolder()
        let yaml = try folder.document(Self.after, name: "after.yaml")
        let json = yaml.value(yaml.root).prettyText
        let fromYAML = try verdict(Self.after, name: "after.yaml", folder: folder).findings
        let fromJSON = try verdict(json, name: "after.json", folder: folder).findings
        #expect(fromJSON.count == 3)
        #expect(fromJSON.map(\.kind) == fromYAML.map(\.kind))
        #expect(fromJSON.map(\.scenario) == fromYAML.map(\.scenario))
        #expect(fromJSON.allSatisfy { $0.source?.file.hasSuffix("after.json") == true })
    }
}
