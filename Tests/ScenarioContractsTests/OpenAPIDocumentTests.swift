import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Loading a document: what is no OpenAPI document, `$ref`s that lead nowhere or loop, and
/// documents made of several files, each error at its file, line and column.
@Suite struct OpenAPIDocumentTests {
    static let head = "openapi: 3.1.0\ninfo: { title: t, version: \"1\" }\n"

    /// A document of one operation whose answer's schema is a `$ref` to `reference`.
    static func answering(_ path: String, with reference: String) -> String {
        head + """
            paths:
              \(path):
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: { $ref: "\(reference)" }

            """
    }

    @Test func whatIsNoOpenAPIDocumentIsRefusedSayingWhat() throws {
        let folder = try ContractFolder()
        let cases: [(text: String, name: String, says: String)] = [
            (#"{"name": "not an api"}"#, "a.json", "no 'openapi' version"),
            ("swagger: \"2.0\"\npaths: {}\n", "b.yaml", "Swagger 2.0"),
            ("- openapi\n", "c.yaml", "not a mapping"),
            ("openapi: 2.5.0\npaths: {}\n", "d.yaml", "OpenAPI 2.5.0 is not read"),
            (Self.head, "e.yaml", "at least one of 'paths'"),
            ("", "f.yaml", "not a mapping"),
        ]
        for (text, name, says) in cases {
            let issue = try #require(try folder.documentIssue(text, name: name), "accepted \(name)")
            #expect(issue.message.contains(says), "\(issue)")
            #expect(issue.location.file.hasSuffix(name) && issue.location.line >= 1)
        }
    }

    @Test func aRefThatLeadsNowhereIsRefusedAtTheRef() throws {
        let folder = try ContractFolder()
        let text =
            Self.answering("/a", with: "#/components/schemas/Usr") + """
                components:
                  schemas:
                    User: { type: object }
                """
        let issue = try #require(try folder.documentIssue(text))
        #expect(issue.location.line == 11 && issue.location.column == 31, "\(issue)")
        #expect(issue.message.contains("leads nowhere") && issue.message.contains("'Usr'"))
        #expect(issue.hint == "did you mean 'User'?")
        let missingFile = try #require(
            try folder.documentIssue(text.replacingOccurrences(of: "#/components/schemas/Usr", with: "schemas.yaml#/User")))
        #expect(missingFile.message.contains("does not exist") && missingFile.location.line == 11)
        let remote = try #require(
            try folder.documentIssue(text.replacingOccurrences(of: "#/components/schemas/Usr", with: "https://example.com/s.yaml")))
        #expect(remote.message.contains("remote file; nothing is fetched"))
        // A `$ref` inside an example is data, not structure.
        let example = text.replacingOccurrences(of: "description: ok\n", with: "description: ok\n          x-note: { $ref: nowhere }\n")
            .replacingOccurrences(of: "#/components/schemas/Usr", with: "#/components/schemas/User")
        #expect(try folder.documentIssue(example) == nil)
    }

    @Test func refsThatLoopAreRefusedWhereTheLoopCloses() throws {
        let folder = try ContractFolder()
        let chain =
            Self.head + """
                paths: {}
                components:
                  schemas:
                    A: { $ref: "#/components/schemas/B" }
                    B: { $ref: "#/components/schemas/A" }
                """
        let issue = try #require(try folder.documentIssue(chain))
        #expect(issue.message.contains("loops back to itself") && issue.location.line == 6, "\(issue)")
        let throughAllOf =
            Self.head + """
                paths: {}
                components:
                  schemas:
                    Node:
                      allOf:
                        - $ref: "#/components/schemas/Node"
                """
        let allOf = try #require(try folder.documentIssue(throughAllOf, name: "allof.yaml"))
        #expect(allOf.message.contains("applies itself to the same value again"), "\(allOf)")
        // A schema may refer to itself below a property: a tree of any depth.
        let tree =
            Self.head + """
                paths: {}
                components:
                  schemas:
                    Node:
                      type: object
                      properties:
                        children: { type: array, items: { $ref: "#/components/schemas/Node" } }
                """
        #expect(try folder.documentIssue(tree, name: "tree.yaml") == nil)
    }

    @Test func aDocumentOfSeveralFilesIsFollowedAndFindingsNameTheirFile() throws {
        let folder = try ContractFolder()
        try folder.write(
            "schemas/user.yaml", "User:\n  type: object\n  required: [id]\n  properties:\n    id: { $ref: \"../common.json#/Id\" }\n")
        try folder.write("common.json", #"{"Id": {"type": "string", "minLength": 2}}"#)
        let document = try folder.document(Self.answering("/users/me", with: "schemas/user.yaml#/User"))
        #expect(document.files.count == 3)
        let verdict = try folder.verdict(
            exchanges: ContractFixtures.exchange(
                "me", #"{ "method": "GET", "path": "/users/me" }"#, #"{ "status": 200, "json": { "id": "x" } }"#),
            against: document)
        let finding = try #require(verdict.findings.first)
        #expect(verdict.findings.count == 1 && finding.expected == "at least 2 characters")
        #expect(finding.source?.file.hasSuffix("common.json") == true && finding.source?.line == 1 && finding.source?.column == 27)
    }

    @Test func yamlProblemsAreReportedInTheFileTheyAreIn() throws {
        let folder = try ContractFolder()
        let tab = try #require(try folder.documentIssue(Self.head + "paths:\n\t/a: {}\n"))
        #expect(tab.location.line == 4 && tab.location.column == 1 && tab.message.contains("tab"))
        try folder.write("parts.yaml", "Broken: *nothing\n")
        let alias = try #require(
            try folder.documentIssue(Self.head + "paths: {}\ncomponents: { schemas: { X: { $ref: \"parts.yaml#/Broken\" } } }\n"))
        #expect(alias.location.file.hasSuffix("parts.yaml") && alias.location.line == 1 && alias.location.column == 9)
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let deepIssue = try #require(try folder.documentIssue(deep, name: "deep.json"))
        #expect(deepIssue.message.contains("deeper than 256") && deepIssue.location.line == 1 && deepIssue.location.column == 257)
    }
}
