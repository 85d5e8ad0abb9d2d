import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine

/// Each schema keyword the verifier checks: a value it accepts and one it refuses, the refusal
/// named by its keyword; and the differences between OpenAPI 3.0 and 3.1.
@Suite struct SchemaKeywordTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var schema: String
        var accepted: String
        var refused: String
        var keyword: String
        var testDescription: String { keyword + ": " + schema }
    }

    static let cases: [Case] = [
        Case(schema: "{ type: string }", accepted: #""a""#, refused: "1", keyword: "type"),
        Case(schema: "{ type: integer }", accepted: "2", refused: "2.5", keyword: "type"),
        Case(schema: "{ type: number }", accepted: "2.5", refused: #""2""#, keyword: "type"),
        Case(schema: "{ type: boolean }", accepted: "false", refused: "0", keyword: "type"),
        Case(schema: "{ type: [string, \"null\"] }", accepted: "null", refused: "3", keyword: "type"),
        Case(
            schema: "{ type: object, properties: { a: { type: string } } }", accepted: #"{"a": "x", "b": 1}"#, refused: #"{"a": 1}"#,
            keyword: "type"),
        Case(schema: "{ required: [a, b] }", accepted: #"{"a": 1, "b": 2}"#, refused: #"{"a": 1}"#, keyword: "required"),
        Case(
            schema: "{ properties: { a: {} }, additionalProperties: false }", accepted: #"{"a": 1}"#, refused: #"{"a": 1, "b": 2}"#,
            keyword: "additionalProperties"),
        Case(schema: "{ additionalProperties: { type: integer } }", accepted: #"{"a": 1}"#, refused: #"{"a": "x"}"#, keyword: "type"),
        Case(schema: "{ items: { type: integer } }", accepted: "[1, 2]", refused: #"[1, "2"]"#, keyword: "type"),
        Case(schema: "{ minItems: 1, maxItems: 2 }", accepted: "[1]", refused: "[]", keyword: "minItems"),
        Case(schema: "{ maxItems: 2 }", accepted: "[1, 2]", refused: "[1, 2, 3]", keyword: "maxItems"),
        Case(schema: "{ uniqueItems: true }", accepted: "[1, 2]", refused: "[1, 1]", keyword: "uniqueItems"),
        Case(schema: "{ enum: [a, b, 3] }", accepted: "3", refused: #""c""#, keyword: "enum"),
        Case(schema: "{ const: { a: 1 } }", accepted: #"{"a": 1}"#, refused: #"{"a": 2}"#, keyword: "const"),
        Case(schema: "{ minimum: 1, maximum: 5 }", accepted: "5", refused: "0", keyword: "minimum"),
        Case(schema: "{ maximum: 5 }", accepted: "5", refused: "5.5", keyword: "maximum"),
        Case(schema: "{ exclusiveMinimum: 1 }", accepted: "1.5", refused: "1", keyword: "exclusiveMinimum"),
        Case(schema: "{ exclusiveMaximum: 5 }", accepted: "4", refused: "5", keyword: "exclusiveMaximum"),
        Case(schema: "{ multipleOf: 0.5 }", accepted: "2.5", refused: "2.2", keyword: "multipleOf"),
        Case(schema: "{ minLength: 2 }", accepted: #""éé""#, refused: #""é""#, keyword: "minLength"),
        Case(schema: "{ maxLength: 2 }", accepted: #""ab""#, refused: #""abc""#, keyword: "maxLength"),
        Case(schema: "{ pattern: \"^[A-Z]{2}$\" }", accepted: #""US""#, refused: #""usa""#, keyword: "pattern"),
        Case(schema: "{ minProperties: 1 }", accepted: #"{"a": 1}"#, refused: "{}", keyword: "minProperties"),
        Case(
            schema: "{ format: date-time }", accepted: #""2026-10-21T07:28:00.5+02:00""#, refused: #""2026-02-30T07:28:00Z""#,
            keyword: "format"),
        Case(schema: "{ format: date }", accepted: #""2024-02-29""#, refused: #""2023-02-29""#, keyword: "format"),
        Case(schema: "{ format: email }", accepted: #""ana@example.com""#, refused: #""ana.example.com""#, keyword: "format"),
        Case(schema: "{ format: uuid }", accepted: #""123e4567-e89b-12d3-a456-426614174000""#, refused: #""123e4567""#, keyword: "format"),
        Case(schema: "{ format: uri }", accepted: #""https://h/a?b=%20""#, refused: #""/relative""#, keyword: "format"),
        Case(schema: "{ format: int32 }", accepted: "2147483647", refused: "2147483648", keyword: "format"),
        Case(schema: "{ allOf: [{ type: integer }, { minimum: 3 }] }", accepted: "3", refused: "2", keyword: "minimum"),
        Case(schema: "{ anyOf: [{ type: integer }, { type: string }] }", accepted: #""a""#, refused: "true", keyword: "anyOf"),
        Case(schema: "{ oneOf: [{ type: integer }, { minimum: 2 }] }", accepted: "1", refused: "3", keyword: "oneOf"),
        Case(schema: "{ not: { type: string } }", accepted: "1", refused: #""a""#, keyword: "not"),
        Case(schema: "{ $ref: \"#/components/schemas/Positive\" }", accepted: "1", refused: "-1", keyword: "minimum"),
    ]

    static func document(_ schema: String, version: String = "3.1.0") -> String {
        """
        openapi: \(version)
        info: { title: t, version: "1" }
        paths: {}
        components:
          schemas:
            Tested: \(schema)
            Positive: { type: integer, minimum: 0 }
        """
    }

    static func validate(_ value: String, against schema: String, version: String = "3.1.0") throws -> OpenAPISchemaValidator {
        let folder = try ContractFolder()
        let document = try folder.document(document(schema, version: version))
        let schemas = document.member(document.root, "components").flatMap { document.member($0, "schemas") }
        let tested = try #require(schemas.flatMap { document.member($0, "Tested") })
        var validator = OpenAPISchemaValidator(document: document)
        validator.validate(try JSONTextParser(data: Data(value.utf8), file: "v").parseDocument(), against: tested, at: (1, 1))
        return validator
    }

    @Test(arguments: cases) func eachKeywordAcceptsAndRefuses(_ test: Case) throws {
        let accepted = try Self.validate(test.accepted, against: test.schema)
        #expect(accepted.passed && accepted.unchecked.isEmpty, "\(accepted.findings)")
        let refused = try Self.validate(test.refused, against: test.schema)
        #expect(refused.findings.map(\.keyword) == [test.keyword], "\(refused.findings)")
        #expect(refused.unchecked.isEmpty)
    }

    @Test func version30ReadsNullableAndIgnoresTheSiblingsOfARef() throws {
        #expect(try Self.validate("null", against: "{ type: string, nullable: true }", version: "3.0.3").passed)
        #expect(!(try Self.validate("null", against: "{ type: string }", version: "3.0.3").passed))
        let sibling = "{ $ref: \"#/components/schemas/Positive\", maximum: 5 }"
        #expect(try Self.validate("9", against: sibling, version: "3.0.3").passed)
        #expect(try Self.validate("9", against: sibling, version: "3.1.0").findings.map(\.keyword) == ["maximum"])
        // 3.0 writes an exclusive bound as a flag beside minimum.
        #expect(
            try Self.validate("1", against: "{ minimum: 1, exclusiveMinimum: true }", version: "3.0.3").findings.map(\.keyword) == [
                "minimum"
            ])
    }

    @Test func keywordsItDoesNotKnowAreNamedNotPassed() throws {
        let validator = try Self.validate(
            #"{"x-1": 1}"#, against: "{ patternProperties: { \"^x\": { type: string } }, description: d, x-note: n }")
        #expect(validator.passed)
        #expect(validator.unchecked.map(\.keyword) == ["patternProperties"])
        #expect(validator.unchecked.first?.place.line == 6)
    }

    @Test func findingsSayWhereInTheValue() throws {
        let validator = try Self.validate(
            #"{"data": {"users": [{"id": "a"}, {"id": 2}]}}"#,
            against: "{ properties: { data: { properties: { users: { items: { properties: { id: { type: string } } } } } } } }")
        #expect(validator.findings.map(\.path) == ["$.data.users[1].id"])
        #expect(validator.findings.first?.line == 1 && validator.findings.first?.column == 35)
    }
}
