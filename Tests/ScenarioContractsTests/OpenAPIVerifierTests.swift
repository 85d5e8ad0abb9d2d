import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine
@testable import ScenarioTraces

/// Every kind of finding against an API document, each placed at the scenario key it is about and
/// at the document's keyword that refused it; and what is never counted as conforming.
@Suite struct OpenAPIVerifierTests {
    let folder: ContractFolder
    let document: OpenAPIDocument

    init() throws {
        folder = try ContractFolder()
        document = try folder.document(ContractFixtures.document)
    }

    static let authorization = #""headers": { "Authorization": "Bearer tok-1" }"#
    static let item = #"{ "status": 200, "headers": { "X-Rate": "5" }, "json": { "id": 7, "name": "a" } }"#

    /// The one finding of one exchange, and the scenario's text.
    func finding(_ request: String, _ response: String, file: String = "s.json") throws -> (ContractFinding, String) {
        let verdict = try folder.verdict(exchanges: ContractFixtures.exchange("x", request, response), against: document, name: file)
        let text = LoaderFixtures.document(exchanges: ContractFixtures.exchange("x", request, response))
        let findings = verdict.findings
        #expect(findings.count == 1, "\(findings.map(\.description))")
        return (try #require(findings.first), text)
    }

    func expect(
        _ finding: ContractFinding, _ kind: ContractFinding.Kind, at needle: String, in text: String, document keyword: String? = nil
    ) {
        #expect(finding.kind == kind, "\(finding.description)")
        let place = ContractFixtures.position(of: needle, in: text)
        #expect(
            finding.scenario.line == place.line && finding.scenario.column == place.column,
            "\(finding.description): \(needle) is at \(place)")
        if let keyword {
            let documented = ContractFixtures.position(of: keyword, in: ContractFixtures.document)
            #expect(
                finding.source?.line == documented.line && finding.source?.column == documented.column,
                "\(finding.description): \(keyword) is at \(documented)")
        }
    }

    @Test func anExchangeTheDocumentDescribesConforms() throws {
        let exchanges = [
            ContractFixtures.exchange(
                "get", #"{ "method": "GET", "path": "/items/7", \#(Self.authorization), "query": { "expand": "owner" } }"#, Self.item),
            ContractFixtures.exchange(
                "range", #"{ "method": "GET", "path": "/items/7" }"#, #"{ "status": 404, "json": { "code": "gone" } }"#),
            ContractFixtures.exchange("empty-4xx", #"{ "method": "GET", "path": "/items/8" }"#, #"{ "status": 429 }"#),
            ContractFixtures.exchange("pattern", #"{ "method": "DELETE", "pathPattern": "/items/{n}" }"#, #"{ "status": 204 }"#),
            ContractFixtures.exchange("subset", #"{ "method": "POST", "path": "/items", "json": { "name": "a" } }"#, #"{ "status": 201 }"#),
            ContractFixtures.exchange(
                "text", #"{ "method": "GET", "path": "/public" }"#,
                #"{ "status": 200, "headers": { "Content-Type": "text/plain" }, "text": "hi" }"#),
        ].joined(separator: ", ")
        let verdict = try folder.verdict(exchanges: exchanges, against: document)
        #expect(verdict.findings.isEmpty, "\(verdict.findings.map(\.description))")
        #expect(verdict.exchanges.map(\.outcome) == Array(repeating: .conforms, count: 6))
    }

    @Test func aPathOrMethodTheDocumentLacksIsAFindingAtItsKey() throws {
        let (path, text) = try finding(#"{ "method": "GET", "path": "/itemz/7" }"#, Self.item)
        expect(path, .pathNotDocumented, at: #""path""#, in: text, document: "paths:")
        #expect(path.expected.contains("/items/{id}"))
        let (method, methodText) = try finding(#"{ "method": "PUT", "path": "/items/7" }"#, Self.item)
        expect(method, .methodNotDocumented, at: #""method""#, in: methodText, document: "get:")
        #expect(method.expected.contains("GET, DELETE") && method.actual == "PUT")
    }

    @Test func parametersArePinnedToWhatTheirSchemasAllow() throws {
        let (low, text) = try finding(#"{ "method": "DELETE", "path": "/items/0" }"#, #"{ "status": 204 }"#)
        expect(low, .parameterRefused, at: #""path""#, in: text, document: "minimum: 1")
        #expect(low.bodyPath == "id")
        let (word, _) = try finding(#"{ "method": "DELETE", "path": "/items/abc" }"#, #"{ "status": 204 }"#)
        #expect(word.kind == .parameterRefused && word.expected == "an integer")
        let (unknown, unknownText) = try finding(#"{ "method": "GET", "path": "/items/7", "query": { "page": "2" } }"#, Self.item)
        expect(unknown, .parameterNotDocumented, at: #""page""#, in: unknownText)
        let (choice, choiceText) = try finding(#"{ "method": "GET", "path": "/items/7", "query": { "expand": "color" } }"#, Self.item)
        expect(choice, .parameterRefused, at: #""expand""#, in: choiceText, document: "enum: [owner")
        let (trace, traceText) = try finding(#"{ "method": "GET", "path": "/items/7", "headers": { "X-Trace": "nope" } }"#, Self.item)
        expect(trace, .parameterRefused, at: #""X-Trace""#, in: traceText, document: "format: uuid")
        let (custom, _) = try finding(#"{ "method": "GET", "path": "/items/7", "headers": { "X-Other": "1" } }"#, Self.item)
        #expect(custom.kind == .parameterNotDocumented)
    }

    @Test func credentialsMustBeOnesTheOperationTakesInItsForm() throws {
        let (none, text) = try finding(
            #"{ "method": "GET", "path": "/public", \#(Self.authorization) }"#,
            #"{ "status": 200, "headers": { "Content-Type": "text/plain" }, "text": "hi" }"#)
        expect(none, .credentialsNotDocumented, at: #""Authorization""#, in: text)
        let (basic, _) = try finding(#"{ "method": "GET", "path": "/items/7", "headers": { "Authorization": "Basic dTpw" } }"#, Self.item)
        #expect(basic.kind == .parameterRefused && basic.expected.contains("Bearer"))
    }

    @Test func aRequestBodyMustBeDocumentedAndFitItsSchemaAsASubset() throws {
        let (none, text) = try finding(#"{ "method": "DELETE", "path": "/items/7", "json": { "why": "x" } }"#, #"{ "status": 204 }"#)
        expect(none, .requestBodyNotDocumented, at: #""json""#, in: text)
        let (wrong, wrongText) = try finding(#"{ "method": "POST", "path": "/items", "json": { "id": "seven" } }"#, #"{ "status": 201 }"#)
        expect(wrong, .requestBodyRefused, at: #""id": "seven""#, in: wrongText, document: "type: integer }\n")
        #expect(wrong.bodyPath == "$.id")
    }

    @Test func theStatusMustBeListedItselfOrByItsRange() throws {
        let (status, text) = try finding(#"{ "method": "DELETE", "path": "/items/7" }"#, #"{ "status": 200 }"#)
        expect(status, .statusNotDocumented, at: #""status""#, in: text, document: "responses:\n        \"204\"")
        #expect(status.expected.hasPrefix("one of 204"))
    }

    @Test func requiredHeadersAreThereAndFitTheirSchema() throws {
        let (missing, text) = try finding(
            #"{ "method": "GET", "path": "/items/7" }"#, #"{ "status": 200, "json": { "id": 7, "name": "a" } }"#)
        expect(missing, .headerMissing, at: #""response""#, in: text, document: "X-Rate:")
        let (wrong, wrongText) = try finding(
            #"{ "method": "GET", "path": "/items/7" }"#,
            #"{ "status": 200, "headers": { "X-Rate": "many" }, "json": { "id": 7, "name": "a" } }"#)
        expect(wrong, .headerRefused, at: #""X-Rate""#, in: wrongText, document: "type: integer } }")
    }

    @Test func bodiesMustBeTheDocumentedMediaTypeAndFitTheSchema() throws {
        let (media, text) = try finding(#"{ "method": "GET", "path": "/public" }"#, #"{ "status": 200, "json": { "a": 1 } }"#)
        expect(media, .mediaTypeNotDocumented, at: #""json""#, in: text)
        let (extra, extraText) = try finding(#"{ "method": "DELETE", "path": "/items/7" }"#, #"{ "status": 204, "json": {} }"#)
        expect(extra, .bodyNotDocumented, at: #""json""#, in: extraText, document: "\"204\": { description: Gone. }")
        let (none, _) = try finding(#"{ "method": "GET", "path": "/items/7" }"#, #"{ "status": 200, "headers": { "X-Rate": "1" } }"#)
        #expect(none.kind == .bodyMissing)
        let (broken, _) = try finding(
            #"{ "method": "GET", "path": "/items/7" }"#,
            #"{ "status": 200, "headers": { "X-Rate": "1", "Content-Type": "application/json" }, "text": "{oops" }"#)
        #expect(broken.kind == .bodyNotJSON)
        let (member, memberText) = try finding(
            #"{ "method": "GET", "path": "/items/7" }"#,
            #"{ "status": 200, "headers": { "X-Rate": "1" }, "json": { "id": 7, "name": "a", "tags": ["x", 2] } }"#)
        expect(member, .bodyRefused, at: "2]", in: memberText, document: "type: string } }")
        #expect(member.bodyPath == "$.tags[1]" && member.scenario.path == "$.exchanges[0].response.json.tags[1]")
        let (long, _) = try finding(
            #"{ "method": "GET", "path": "/public" }"#,
            #"{ "status": 200, "headers": { "Content-Type": "text/plain" }, "text": "toolong" }"#)
        #expect(long.kind == .bodyRefused && long.expected == "at most 5 characters")
    }

    @Test func whatCannotBeCheckedIsNeverCountedAsConforming() throws {
        let broad = try folder.verdict(
            exchanges: ContractFixtures.exchange("any", #"{ "method": "GET", "pathPattern": "/items/*" }"#, Self.item), against: document)
        #expect(broad.outcome == .couldNotCheck)
        #expect(broad.exchanges[0].unchecked.first?.reason.contains("ends in '*'") == true)
        let unknownKeyword = try folder.document(
            ContractFixtures.document.replacingOccurrences(
                of: "    Problem:\n      type: object\n",
                with: "    Problem:\n      type: object\n      patternProperties: { \"^x\": {} }\n"),
            name: "unknown.yaml")
        let verdict = try folder.verdict(
            exchanges: ContractFixtures.exchange(
                "p", #"{ "method": "GET", "path": "/items/7" }"#, #"{ "status": 404, "json": { "code": "x" } }"#),
            against: unknownKeyword)
        #expect(verdict.outcome == .couldNotCheck)
        let part = try #require(verdict.exchanges[0].unchecked.first)
        #expect(part.reason.contains("'patternProperties'") && part.source?.file.hasSuffix("unknown.yaml") == true)
        let unknownFormat = try folder.document(
            ContractFixtures.document.replacingOccurrences(of: "format: uuid", with: "format: ulid"), name: "format.yaml")
        let formatVerdict = try folder.verdict(
            exchanges: ContractFixtures.exchange(
                "f", #"{ "method": "GET", "path": "/items/7", "headers": { "X-Trace": "01H" } }"#, Self.item),
            against: unknownFormat)
        // An unknown format is an annotation (JSON Schema): the value passes it, and it is listed.
        #expect(formatVerdict.outcome == .conforms && formatVerdict.exchanges[0].unchecked.isEmpty)
        #expect(formatVerdict.exchanges[0].formatsNotChecked.map(\.reason) == ["the format 'ulid' is not checked"])
    }

    @Test func anExchangeLeftOutIsSkippedWithItsReason() throws {
        let exchange =
            #"{ "id": "x", "verify": { "skip": "a proxy's page" }, "request": { "method": "GET", "path": "/nowhere" }, "response": { "status": 200 } }"#
        let verdict = try folder.verdict(exchanges: exchange, against: document)
        #expect(verdict.outcome == .skipped && verdict.exchanges[0].skipReason == "a proxy's page" && verdict.findings.isEmpty)
    }

    @Test func aServersPathPrefixIsPartOfTheRoute() throws {
        let prefixed = try folder.document(
            ContractFixtures.document.replacingOccurrences(of: "info:", with: "servers: [{ url: \"https://api.example.com/v1\" }]\ninfo:"),
            name: "v1.yaml")
        let verdict = try folder.verdict(
            exchanges: ContractFixtures.exchange("v", #"{ "method": "GET", "path": "/v1/items/7" }"#, Self.item), against: prefixed)
        #expect(verdict.outcome == .conforms, "\(verdict.findings.map(\.description))")
    }
}
