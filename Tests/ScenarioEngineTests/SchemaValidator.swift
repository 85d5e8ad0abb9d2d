import Foundation
import ScenarioEngine

/// A minimal JSON Schema (draft 2020-12) validator: just the keywords `scenario.schema.json` uses.
///
/// Any other keyword that constrains values is reported as a failure, so the schema cannot
/// quietly start depending on something this validator does not check.
struct SchemaValidator {
    /// One way an instance breaks the schema.
    struct Failure: CustomStringConvertible, Hashable {
        /// Where in the instance, such as `$.exchanges[0].times`.
        var path: String
        /// What is wrong.
        var message: String

        var description: String { "\(path): \(message)" }
    }

    /// Keywords that only annotate.
    private static let annotations: Set<String> = [
        "$schema", "$id", "$defs", "$comment", "title", "description", "format", "default", "examples",
    ]
    private static let supported: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "prefixItems", "enum", "const", "pattern",
        "minimum", "maximum", "minItems", "minLength", "oneOf", "anyOf", "allOf", "not", "$ref",
    ]

    let root: JSONValue

    /// Validates `instance` against the root schema.
    func validate(_ instance: JSONValue) -> [Failure] {
        validate(instance, against: root, path: "$", depth: 0)
    }

    private func validate(_ instance: JSONValue, against schema: JSONValue, path: String, depth: Int) -> [Failure] {
        guard depth < 200 else { return [Failure(path: path, message: "schema recursion too deep")] }
        if case .bool(let allowed) = schema {
            return allowed ? [] : [Failure(path: path, message: "no value is allowed here")]
        }
        guard let keywords = schema.objectValue else {
            return [Failure(path: path, message: "schema is not an object or a boolean")]
        }
        var failures: [Failure] = []
        for (keyword, value) in keywords {
            if Self.annotations.contains(keyword) { continue }
            guard Self.supported.contains(keyword) else {
                failures.append(Failure(path: path, message: "schema uses unsupported keyword '\(keyword)'"))
                continue
            }
            failures += check(keyword, value, in: keywords, instance: instance, path: path, depth: depth)
        }
        return failures
    }

    private func check(
        _ keyword: String, _ value: JSONValue, in keywords: JSONObject, instance: JSONValue, path: String, depth: Int
    ) -> [Failure] {
        func fail(_ message: String) -> [Failure] { [Failure(path: path, message: message)] }
        switch keyword {
        case "$ref":
            let prefix = "#/$defs/"
            guard let reference = value.stringValue, reference.hasPrefix(prefix),
                let target = root["$defs"]?[String(reference.dropFirst(prefix.count))]
            else { return fail("unresolvable $ref \(value.compactText)") }
            return validate(instance, against: target, path: path, depth: depth + 1)
        case "type":
            let names = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
            return names.contains(where: { Self.has(instance, type: $0) })
                ? [] : fail("expected \(names.joined(separator: " or ")), got \(instance.typeDescription)")
        case "properties":
            guard let object = instance.objectValue, let properties = value.objectValue else { return [] }
            return object.flatMap { key, member in
                properties[key].map { validate(member, against: $0, path: path + "." + key, depth: depth + 1) } ?? []
            }
        case "additionalProperties":
            guard let object = instance.objectValue else { return [] }
            let declared = Set(keywords["properties"]?.objectValue?.keys ?? [])
            return object.flatMap { key, member in
                declared.contains(key)
                    ? []
                    : validate(member, against: value, path: path + "." + key, depth: depth + 1).map {
                        $0.message == "no value is allowed here" ? Failure(path: $0.path, message: "unknown property '\(key)'") : $0
                    }
            }
        case "required":
            guard let object = instance.objectValue else { return [] }
            return (value.arrayValue ?? []).compactMap(\.stringValue).filter { object[$0] == nil }.map {
                Failure(path: path, message: "missing required property '\($0)'")
            }
        case "items":
            guard let elements = instance.arrayValue else { return [] }
            let skip = keywords["prefixItems"]?.arrayValue?.count ?? 0
            return elements.enumerated().dropFirst(skip).flatMap {
                validate($1, against: value, path: path + "[\($0)]", depth: depth + 1)
            }
        case "prefixItems":
            guard let elements = instance.arrayValue, let schemas = value.arrayValue else { return [] }
            return zip(elements, schemas).enumerated().flatMap {
                validate($1.0, against: $1.1, path: path + "[\($0)]", depth: depth + 1)
            }
        case "enum":
            return (value.arrayValue ?? []).contains(instance) ? [] : fail("\(instance.compactText) is not one of \(value.compactText)")
        case "const":
            return instance == value ? [] : fail("expected \(value.compactText), got \(instance.compactText)")
        case "pattern":
            guard let text = instance.stringValue, let pattern = value.stringValue else { return [] }
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return fail("invalid pattern \(pattern)") }
            let found = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            return found ? [] : fail("\"\(text)\" does not match \(pattern)")
        case "minimum":
            guard let number = instance.numberValue, let limit = value.numberValue else { return [] }
            return number >= limit ? [] : fail("\(number) is less than \(limit)")
        case "maximum":
            guard let number = instance.numberValue, let limit = value.numberValue else { return [] }
            return number <= limit ? [] : fail("\(number) is more than \(limit)")
        case "minItems":
            guard let elements = instance.arrayValue, let limit = value.intValue else { return [] }
            return elements.count >= limit ? [] : fail("fewer than \(limit) items")
        case "minLength":
            guard let text = instance.stringValue, let limit = value.intValue else { return [] }
            return text.unicodeScalars.count >= limit ? [] : fail("shorter than \(limit) characters")
        case "oneOf":
            let schemas = value.arrayValue ?? []
            let passing = schemas.filter { validate(instance, against: $0, path: path, depth: depth + 1).isEmpty }.count
            return passing == 1 ? [] : fail("matches \(passing) of the oneOf alternatives instead of exactly one")
        case "anyOf":
            let schemas = value.arrayValue ?? []
            return schemas.contains { validate(instance, against: $0, path: path, depth: depth + 1).isEmpty }
                ? [] : fail("matches none of the anyOf alternatives")
        case "allOf":
            return (value.arrayValue ?? []).flatMap { validate(instance, against: $0, path: path, depth: depth + 1) }
        case "not":
            return validate(instance, against: value, path: path, depth: depth + 1).isEmpty ? fail("matches a 'not' schema") : []
        default:
            return fail("unhandled keyword '\(keyword)'")
        }
    }

    private static func has(_ instance: JSONValue, type: String) -> Bool {
        switch (type, instance) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            true
        case ("integer", .number(let value)): value.rounded() == value
        default: false
        }
    }
}
