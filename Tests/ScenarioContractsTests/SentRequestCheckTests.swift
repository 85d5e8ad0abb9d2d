import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine
@testable import ScenarioTraces

/// verify --openapi checks what the app sent in a scenario's run, not only what the scenario
/// scripts: a required body member, parameter or credential missing is a finding at the step
/// that sent the request, and at the document's keyword.
@Suite struct SentRequestCheckTests {
    static let document = """
        openapi: 3.0.3
        info: { title: t, version: "1" }
        security: [{ bearer: [] }]
        paths:
          /login:
            post:
              security: []
              requestBody:
                required: true
                content:
                  application/json:
                    schema: { type: object, required: [email, password], properties: { email: { type: string }, password: { type: string } } }
              responses: { "200": { description: ok } }
          /items:
            get:
              parameters: [{ name: page, in: query, required: true, schema: { type: integer } }]
              responses: { "200": { description: ok } }
        components:
          securitySchemes:
            bearer: { type: http, scheme: bearer }
        """

    static let exchanges = [
        #"{ "id": "login", "request": { "method": "POST", "path": "/login" }, "response": { "status": 200 } }"#,
        #"{ "id": "items", "request": { "method": "GET", "path": "/items" }, "response": { "status": 200 } }"#,
    ].joined(separator: ", ")
    static let steps = [
        #"{ "do": "login", "with": { "email": "a@b.c", "password": "pw" } }"#,
        #"{ "do": "request", "with": { "method": "GET", "path": "/items" } }"#,
    ].joined(separator: ", ")

    func verdict(_ sent: [(exchange: String, request: HTTPRequest)]) throws -> (ScenarioVerdict, Int, String) {
        let folder = try ContractFolder()
        let document = try folder.document(Self.document)
        let text = LoaderFixtures.document(exchanges: Self.exchanges, steps: Self.steps)
        let path = try folder.write("s.json", text)
        let scenario = try LoaderFixtures.loader.load(data: Data(text.utf8), file: path, id: "s").get()
        let root = try JSONTextParser(data: Data(text.utf8), file: path).parseDocument()
        // Two actions, each sending one request.
        let requests = sent.enumerated().map { index, entry in
            RunRecord.Request(
                number: index + 1, request: entry.request, exchange: entry.exchange, at: .zero, order: 3 * index + 2,
                answer: RunRecord.Answer(status: 200, at: .zero, order: 3 * index + 3))
        }
        let actions = sent.indices.map { RunRecord.Action(name: "a", began: 3 * $0 + 1, ended: 3 * $0 + 3, result: nil) }
        let verifier = OpenAPIVerifier(document: document)
        var verdict = verifier.verify(scenario, root: root)
        let checked = verifier.checkSent(RunRecord(requests: requests, actions: actions), of: scenario, into: &verdict)
        return (verdict, checked, text)
    }

    static let login = HTTPRequest(
        method: .post, path: "/login", headers: ["Content-Type": "application/json"], body: Data(#"{"email":"a@b.c","password":"pw"}"#.utf8)
    )
    static let items = HTTPRequest(
        method: .get, path: "/items", query: [.init(name: "page", value: "2")], headers: ["Authorization": "Bearer tok-1"])

    @Test func whatTheDocumentAsksForConforms() throws {
        let (verdict, checked, _) = try verdict([("login", Self.login), ("items", Self.items)])
        #expect(checked == 2 && verdict.findings.isEmpty, "\(verdict.findings.map(\.description))")
    }

    @Test func aMissingRequiredBodyMemberIsAFindingAtTheStepThatSentIt() throws {
        var login = Self.login
        login.body = Data(#"{"email":"a@b.c"}"#.utf8)
        let (verdict, _, text) = try verdict([("login", login), ("items", Self.items)])
        let finding = try #require(verdict.findings.first)
        #expect(verdict.findings.count == 1 && finding.kind == .requestBodyRefused && finding.sentRequest == 1)
        #expect(finding.expected == "a member 'password'")
        // At the step's action call, and at the document's `required`.
        let step = ContractFixtures.position(of: #"{ "do": "login""#, in: text)
        #expect(finding.scenario.line == step.line && finding.scenario.column == step.column, "\(finding.scenario)")
        #expect(finding.source?.line == 12 && finding.description.contains("in request #1 the app sent"))
    }

    @Test func missingCredentialsParametersAndContentTypeAreFindings() throws {
        var login = Self.login
        login.headers = [:]
        let bare = HTTPRequest(method: .get, path: "/items")
        let (verdict, _, _) = try verdict([("login", login), ("items", bare)])
        let kinds = Set(verdict.findings.map(\.kind))
        #expect(kinds == [.mediaTypeNotDocumented, .parameterMissing, .credentialsMissing], "\(verdict.findings.map(\.description))")
        #expect(verdict.exchanges[1].findings.allSatisfy { $0.sentRequest == 2 })
        var empty = Self.login
        empty.body = nil
        #expect(try self.verdict([("login", empty)]).0.findings.map(\.kind) == [.requestBodyMissing])
    }
}
