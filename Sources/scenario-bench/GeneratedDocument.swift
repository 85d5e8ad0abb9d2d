import Foundation
import ScenarioKit

/// A made-up OpenAPI 3.1 document of about a given size, in YAML and in JSON: many resources,
/// each with three operations, path parameters, shared responses and a schema of nested objects,
/// lists, enums and `$ref`s, as a large real API document has.
enum GeneratedDocument {
    /// The document's value, grown resource by resource until its JSON text passes `bytes`.
    static func value(bytes: Int) -> JSONValue {
        var paths = JSONObject()
        var schemas = JSONObject()
        var size = 0
        var index = 0
        while size < bytes {
            let name = "Resource\(index)"
            let reference: JSONValue = ["$ref": .string("#/components/schemas/\(name)")]
            let answer: JSONValue = ["description": .string("The \(name)."), "content": ["application/json": ["schema": reference]]]
            let shared: JSONValue = ["$ref": "#/components/responses/Problem"]
            paths["/resources-\(index)/{id}"] = [
                "parameters": [["name": "id", "in": "path", "required": true, "schema": ["type": "string", "minLength": 1]]],
                "get": ["operationId": .string("get\(name)"), "responses": ["200": answer, "4XX": shared, "5XX": shared]],
                "put": [
                    "operationId": .string("put\(name)"), "requestBody": ["content": ["application/json": ["schema": reference]]],
                    "responses": ["200": answer, "4XX": shared],
                ],
                "delete": ["operationId": .string("delete\(name)"), "responses": ["204": ["description": "Gone."], "4XX": shared]],
            ]
            schemas[name] = schema(index)
            size += 2_900
            index += 1
        }
        schemas["Problem"] = [
            "type": "object", "required": ["code"], "properties": ["code": ["type": "string"], "detail": ["type": "string"]],
        ]
        return [
            "openapi": "3.1.0", "info": ["title": "Generated", "version": "1.0"],
            "paths": .object(paths),
            "components": [
                "schemas": .object(schemas),
                "responses": [
                    "Problem": [
                        "description": "A problem.", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Problem"]]],
                    ]
                ],
            ],
        ]
    }

    private static func schema(_ index: Int) -> JSONValue {
        let other = max(0, index - 1)
        return [
            "type": "object",
            "description": .string(
                "Resource number \(index): a made-up record with the kinds of members real records have, long enough to fold."),
            "required": ["id", "name", "status", "created_at"],
            "properties": [
                "id": ["type": "string", "format": "uuid"],
                "name": ["type": "string", "minLength": 1, "maxLength": 200],
                "status": ["type": "string", "enum": ["active", "suspended", "deleted"]],
                "created_at": ["type": "string", "format": "date-time"],
                "count": ["type": "integer", "minimum": 0],
                "ratio": ["type": ["number", "null"], "maximum": 1],
                "tags": ["type": "array", "items": ["type": "string"], "uniqueItems": true],
                "owner": [
                    "type": "object",
                    "properties": [
                        "id": ["type": "string"], "email": ["type": "string", "format": "email"], "verified": ["type": "boolean"],
                    ],
                ],
                "parent": ["$ref": .string("#/components/schemas/Resource\(other)")],
                "links": [
                    "type": "array",
                    "items": ["type": "object", "properties": ["rel": ["type": "string"], "href": ["type": "string", "format": "uri"]]],
                ],
            ],
        ]
    }

    /// The value as block YAML: mappings and lists indented two spaces, long texts folded,
    /// strings quoted where the core schema would read them as something else.
    static func yaml(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, into: &out, inline: false)
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout String, inline: Bool) {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .object(let object) where !object.isEmpty:
            var first = true
            for (key, member) in object {
                if !(inline && first) { out += pad }
                first = false
                out += scalar(.string(key)) + ":"
                writeMember(member, indent: indent, into: &out)
            }
        case .array(let elements) where !elements.isEmpty:
            var first = true
            for element in elements {
                if !(inline && first) { out += pad }
                first = false
                out += "- "
                if case .object(let object) = element, !object.isEmpty {
                    write(element, indent: indent + 2, into: &out, inline: true)
                } else {
                    writeMember(element, indent: indent + 2, into: &out, afterDash: true)
                }
            }
        default:
            out += scalar(value) + "\n"
        }
    }

    private static func writeMember(_ member: JSONValue, indent: Int, into out: inout String, afterDash: Bool = false) {
        let pad = String(repeating: " ", count: indent)
        switch member {
        case .object(let object) where !object.isEmpty:
            out += "\n"
            write(member, indent: indent + 2, into: &out, inline: false)
        case .array(let elements) where !elements.isEmpty:
            out += "\n"
            write(member, indent: indent + 2, into: &out, inline: false)
        case .string(let text) where text.count > 60 && !text.contains("\n"):
            out += (afterDash ? "" : " ") + ">-\n" + pad + "  " + text + "\n"
        default:
            out += (afterDash ? "" : " ") + scalar(member) + "\n"
        }
    }

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .object: return "{}"
        case .array: return "[]"
        case .string(let text):
            let plain =
                !text.isEmpty
                && text.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || " _.,/-".unicodeScalars.contains($0))
                }
                && !text.hasPrefix("-") && !text.hasPrefix(" ") && !text.hasSuffix(" ") && !(text.first?.isNumber ?? false)
                && !["true", "false", "null", "True", "False", "Null", "TRUE", "FALSE", "NULL", "~"].contains(text)
            return plain ? text : value.compactText
        default:
            return value.compactText
        }
    }
}
