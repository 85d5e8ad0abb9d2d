import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine
@testable import ScenarioTraces

/// verify reads the specifications as they are written: `nullable` as OAS 3.0.3 defines it, an
/// unknown `format` as an annotation, the YAML that emitters write (explicit `? ` keys, tags on
/// keys), and 3.1 documents without `paths`.
@Suite struct SpecificationStrictnessTests {
    static func refusedBy(_ value: String, _ schema: String, version: String) throws -> [String] {
        try SchemaKeywordTests.validate(value, against: schema, version: version).findings.map(\.keyword)
    }

    @Test func nullableAddsNullOnlyToATypeInTheSameObject() throws {
        #expect(try Self.refusedBy("null", "{ type: string, nullable: true }", version: "3.0.3") == [])
        // Beside allOf / oneOf with no type of its own, nullable adds nothing: the branches refuse null.
        #expect(
            try Self.refusedBy("null", "{ nullable: true, allOf: [{ $ref: \"#/components/schemas/Positive\" }] }", version: "3.0.3") == [
                "type"
            ])
        #expect(
            try Self.refusedBy("null", "{ nullable: true, oneOf: [{ type: string }, { type: integer }] }", version: "3.0.3") == ["oneOf"])
        // An enum that lists no null refuses it, nullable or not.
        #expect(try Self.refusedBy("null", "{ type: string, nullable: true, enum: [a, b] }", version: "3.0.3") == ["enum"])
        #expect(try Self.refusedBy("null", "{ type: string, nullable: true, enum: [a, null] }", version: "3.0.3") == [])
        // 3.1 has no nullable keyword: a type list says it.
        #expect(try Self.refusedBy("null", "{ type: string, nullable: true }", version: "3.1.0") == ["type"])
        #expect(try Self.refusedBy("\"a\"", "{ type: string, nullable: true }", version: "3.1.0") == [])
    }

    @Test func aTypeFindingSaysNullOnce() throws {
        let finding = try #require(try SchemaKeywordTests.validate("null", against: "{ type: string }").findings.first)
        #expect(finding.expected == "a string" && finding.actual == "null")
        let other = try #require(try SchemaKeywordTests.validate("3", against: "{ type: string }").findings.first)
        #expect(other.actual == "a number 3")
    }

    @Test func anUnknownFormatPassesAndIsListed() throws {
        let validator = try SchemaKeywordTests.validate(#""+1 415""#, against: "{ type: string, format: phone-number }", version: "3.0.3")
        #expect(validator.passed && validator.unchecked.isEmpty)
        #expect(validator.formatsNotChecked.map(\.reason) == ["the format 'phone-number' is not checked"])
        // A known format still refuses.
        #expect(try Self.refusedBy(#""x""#, "{ type: string, format: uuid }", version: "3.0.3") == ["format"])
    }

    @Test func explicitKeysAndTaggedKeysReadAsTheSimpleForm() throws {
        let long = String(repeating: "segment.", count: 20) + "end"
        let explicit = """
            paths:
              ? /a/\(long)
              : get:
                  summary: x
              /b: 1
            schemas:
              ? "\(long)"
              : type: object
            codes:
              !!int "200": ok
              !!str 404: missing
            """
        let simple = """
            paths:
              /a/\(long):
                get:
                  summary: x
              /b: 1
            schemas:
              "\(long)":
                type: object
            codes:
              "200": ok
              "404": missing
            """
        let left = try YAMLReader.read(Array(explicit.utf8), file: "explicit.yaml")
        let right = try YAMLReader.read(Array(simple.utf8), file: "simple.yaml")
        #expect(DocumentTree.sameValue(left, left.root, right, right.root))
    }

    @Test func documentsWithoutPathsLoadWhere31AllowsThem() throws {
        let folder = try ContractFolder()
        let webhooks = try folder.document(
            """
            openapi: 3.1.0
            info: { title: Hooks, version: "1" }
            webhooks:
              newPet:
                post:
                  responses: { "200": { description: ok } }
            """, name: "webhooks.yaml")
        #expect(webhooks.operations.isEmpty)
        let components = try folder.document(
            "openapi: 3.1.0\ninfo: { title: C, version: \"1\" }\ncomponents: { schemas: { A: { type: string } } }\n",
            name: "components.yaml")
        #expect(components.operations.isEmpty)
        #expect(throws: LoadIssue.self) {
            try folder.document("openapi: 3.1.0\ninfo: { title: N, version: \"1\" }\n", name: "nothing.yaml")
        }
        #expect(throws: LoadIssue.self) {
            try folder.document("openapi: 3.0.3\ninfo: { title: N, version: \"1\" }\ncomponents: {}\n", name: "old.yaml")
        }
    }
}
