import Foundation
import ScenarioEngine

/// Media types as a document lists them, and text read as the type a schema declares.
enum MediaTypes {
    /// `application/json; charset=utf-8` gives `application/json`.
    static func essence(_ contentType: String) -> String {
        String(contentType.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    static func isJSON(_ essence: String) -> Bool {
        essence == "application/json" || essence.hasSuffix("+json")
    }

    /// The media type object for `essence` in a `content` mapping: the type itself, then its
    /// `type/*` range, then `*/*`.
    static func select(_ essence: String, in content: DocumentNode, document: OpenAPIDocument) -> DocumentNode? {
        let listed = document.members(content).map { (key: Self.essence($0.key), value: $0.value) }
        let range = (essence.split(separator: "/").first.map(String.init) ?? essence) + "/*"
        return (listed.first { $0.key == essence } ?? listed.first { $0.key == range } ?? listed.first { $0.key == "*/*" })
            .map { document.resolved($0.value) }
    }

    /// A request body written as text, as the value its media type makes of it: JSON parsed, a
    /// form as an object of its fields (read as the types the schema's properties declare), any
    /// `text/` type as a string; `nil` for a type whose content is not checked.
    static func value(ofText text: String, mediaType: String, schema: DocumentNode, document: OpenAPIDocument) -> JSONNode? {
        if isJSON(mediaType) { return try? JSONTextParser(data: Data(text.utf8), file: "").parseDocument() }
        if mediaType == "application/x-www-form-urlencoded" {
            let properties = document.member(document.resolved(schema), "properties")
            var object = JSONObject()
            for pair in text.split(separator: "&") where !pair.isEmpty {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ") }
                let name = parts[0].removingPercentEncoding ?? parts[0]
                let value = parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : ""
                let property = properties.flatMap { document.member($0, name) }
                object[name] = property.map { SchemaCoercion.value(of: value, for: $0, in: document) } ?? .string(value)
            }
            return JSONNode(value: .object(object), line: 0, column: 0)
        }
        return mediaType.hasPrefix("text/") ? JSONNode(value: .string(text), line: 0, column: 0) : nil
    }
}

/// Text (a header, a path or query parameter, a form field) read as the type its schema declares:
/// `120` is a number for `type: integer`, and stays a string for `type: string`.
enum SchemaCoercion {
    static func value(of text: String, for schema: DocumentNode, in document: OpenAPIDocument) -> JSONValue {
        let types = declaredTypes(schema, document, depth: 0)
        if types.contains("integer") || types.contains("number"), let number = JSONValue.parse(Data(text.utf8))?.numberValue {
            return .number(number)
        }
        if types.contains("boolean"), text == "true" || text == "false" { return .bool(text == "true") }
        if types.contains("array") {
            return .array(text.split(separator: ",", omittingEmptySubsequences: false).map { .string(String($0)) })
        }
        return .string(text)
    }

    /// The types a schema and its `$ref`, `allOf`, `anyOf` and `oneOf` may take.
    private static func declaredTypes(_ schema: DocumentNode, _ document: OpenAPIDocument, depth: Int) -> Set<String> {
        guard depth < 8, document.kind(schema) == .object else { return [] }
        var types: Set<String> = []
        if let type = document.member(schema, "type") {
            types.formUnion(document.elements(type)?.compactMap(document.string) ?? document.string(type).map { [$0] } ?? [])
        }
        for next in document.sameValueSchemas(of: schema) { types.formUnion(declaredTypes(next, document, depth: depth + 1)) }
        return types
    }
}
