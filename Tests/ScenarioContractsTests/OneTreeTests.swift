import Foundation
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine

/// The scenario parser and the YAML reader build one kind of tree: the same document read by
/// both is the same value node for node, at the same places, and a form body is a tree whose
/// fields the schema's properties check.
@Suite struct OneTreeTests {
    static let json =
        "{\"openapi\": \"3.1.0\",\r\n \"info\": {\"title\": \"caf\\u00e9\", \"version\": \"1\"},\n"
        + " \"x-list\": [1, -2.5e1, true, null, \"naïve\", {\"é\": []}],\n \"paths\": {}}"

    @Test func bothReadersBuildTheSameTreeAtTheSamePlaces() throws {
        let parsed = try JSONTextParser(data: Data(Self.json.utf8), file: "a.json").parseDocument().tree
        let read = try YAMLReader.readJSON(Array(Self.json.utf8), file: "a.json")
        #expect(DocumentTree.sameValue(parsed, parsed.root, read, read.root))
        #expect(parsed.nodeCount == read.nodeCount)
        // The parser places every node as it reads; the reader finds places from offsets: the same.
        var pairs = [(parsed.root, read.root)]
        var compared = 0
        while let (left, right) = pairs.popLast() {
            #expect(parsed.position(left) == read.position(right), "\(parsed.place(left)) and \(read.place(right))")
            compared += 1
            if let leftMembers = parsed.members(left), let rightMembers = read.members(right) {
                for (a, b) in zip(leftMembers, rightMembers) { pairs += [(a.key, b.key), (a.value, b.value)] }
            } else if let leftElements = parsed.elements(left), let rightElements = read.elements(right) {
                pairs += zip(leftElements, rightElements).map { ($0, $1) }
            }
        }
        #expect(compared == parsed.nodeCount)
        // A changed leaf is another value.
        let changed = try JSONTextParser(data: Data(Self.json.replacingOccurrences(of: "true", with: "false").utf8), file: "b.json")
            .parseDocument().tree
        #expect(!DocumentTree.sameValue(changed, changed.root, read, read.root))
    }

    @Test func aFormBodysFieldsAreCheckedByTheSchemasProperties() throws {
        let folder = try ContractFolder()
        let document = try folder.document(
            """
            openapi: 3.1.0
            info: { title: t, version: "1" }
            paths: {}
            components:
              schemas:
                Form: { type: object, required: [email], properties: { age: { type: integer, minimum: 18 }, email: { type: string } } }
            """)
        let schema = try #require(
            document.member(document.root, "components").flatMap { document.member($0, "schemas") }.flatMap { document.member($0, "Form") })
        func findings(_ text: String) throws -> [String] {
            let value = try #require(
                MediaTypes.value(ofText: text, mediaType: "application/x-www-form-urlencoded", schema: schema, document: document))
            var validator = OpenAPISchemaValidator(document: document)
            validator.validate(value, against: schema, at: nil)
            return validator.findings.map { "\($0.path) \($0.keyword)" }
        }
        #expect(try findings("email=a%40b.c&age=30") == [])
        #expect(try findings("email=a%40b.c&age=12") == ["$.age minimum"])
        let both = try findings("age=x")
        #expect(both == ["$ required", "$.age type"], "\(both)")
    }
}
