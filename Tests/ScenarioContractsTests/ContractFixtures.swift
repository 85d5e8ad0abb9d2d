import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine
@testable import ScenarioTraces

/// Documents and scenarios written to a folder of their own, verified as `scenario verify` does.
final class ContractFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// The document written as `name`, loaded.
    func document(_ text: String, name: String = "api.yaml") throws -> OpenAPIDocument {
        try OpenAPIDocument.load(path: try write(name, text))
    }

    /// The load error of the document written as `name`.
    func documentIssue(_ text: String, name: String = "api.yaml") throws -> LoadIssue? {
        let path = try write(name, text)
        do {
            _ = try OpenAPIDocument.load(path: path)
            return nil
        } catch {
            return error
        }
    }

    /// The verdict on a scenario of these exchanges, written as `name`.
    func verdict(exchanges: String, against document: OpenAPIDocument, name: String = "s.json") throws -> ScenarioVerdict {
        let (scenario, root) = try scenario(exchanges: exchanges, name: name)
        return OpenAPIVerifier(document: document).verify(scenario, root: root)
    }

    func scenario(exchanges: String, name: String = "s.json") throws -> (Scenario, JSONNode) {
        let text = LoaderFixtures.document(exchanges: exchanges)
        let path = try write(name, text)
        let scenario = try LoaderFixtures.loader.load(data: Data(text.utf8), file: path, id: "s").get()
        return (scenario, try JSONTextParser(data: Data(text.utf8), file: path).parseDocument())
    }
}

enum ContractFixtures {
    /// The 1-based line and column of the first `needle` in `text` (after `occurrence` others).
    static func position(of needle: String, in text: String, occurrence: Int = 0) -> (line: Int, column: Int) {
        var range = text.startIndex..<text.endIndex
        var found: Range<String.Index>?
        for _ in 0...occurrence {
            found = text.range(of: needle, range: range)
            guard let hit = found else { return (0, 0) }
            range = hit.upperBound..<text.endIndex
        }
        guard let found else { return (0, 0) }
        let before = text[..<found.lowerBound]
        let line = before.filter { $0 == "\n" }.count + 1
        let column =
            before.distance(from: before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex, to: before.endIndex) + 1
        return (line, column)
    }

    /// A document that exercises what verification reads: path templates and parameters,
    /// credentials, a request body, status ranges, required headers, media types and `$ref`s.
    static let document = """
        openapi: 3.0.3
        info: { title: Items, version: "1" }
        security: [{ bearer: [] }]
        paths:
          /items/{id}:
            parameters:
              - { name: id, in: path, required: true, schema: { type: integer, minimum: 1 } }
            get:
              parameters:
                - { name: expand, in: query, schema: { type: string, enum: [owner, tags] } }
                - { name: X-Trace, in: header, schema: { type: string, format: uuid } }
              responses:
                "200":
                  description: The item.
                  headers:
                    X-Rate: { required: true, schema: { type: integer } }
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Item" }
                4XX:
                  description: A problem.
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Problem" }
                    "*/*": {}
            delete:
              responses:
                "204": { description: Gone. }
          /items:
            post:
              requestBody:
                content:
                  application/json:
                    schema: { $ref: "#/components/schemas/Item" }
              responses:
                "201": { description: Made. }
          /public:
            get:
              security: []
              responses:
                "200":
                  description: Text.
                  content:
                    text/plain:
                      schema: { type: string, maxLength: 5 }
        components:
          securitySchemes:
            bearer: { type: http, scheme: bearer }
          schemas:
            Item:
              type: object
              required: [id, name]
              properties:
                id: { type: integer }
                name: { type: string, minLength: 1 }
                tags: { type: array, items: { type: string } }
            Problem:
              type: object
              properties:
                code: { type: string }
        """

    /// An exchange of `request` and `response` objects (JSON text).
    static func exchange(_ id: String, _ request: String, _ response: String) -> String {
        #"{ "id": "\#(id)", "request": \#(request), "response": \#(response) }"#
    }
}
