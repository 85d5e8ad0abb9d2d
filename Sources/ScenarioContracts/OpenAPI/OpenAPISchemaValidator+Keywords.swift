import Foundation
import ScenarioEngine

/// The keywords that look at one kind of value: types, objects, arrays, strings, numbers,
/// formats and equality. Each applies only to the kind it is about, as JSON Schema says.
extension OpenAPISchemaValidator {
    /// `type` (a name, or 3.1's list of names); false when the value is of another type.
    mutating func checkType(_ value: JSONNode, _ keyNode: DocumentNode, _ type: DocumentNode, _ path: String, at place: ValuePlace?) -> Bool
    {
        let names = document.elements(type)?.compactMap(document.string) ?? document.string(type).map { [$0] } ?? []
        guard !names.isEmpty else {
            note("type", keyNode, "'type' must be a type name or a list of them")
            return true
        }
        let known = ["null", "boolean", "object", "array", "string", "number", "integer"]
        for name in names where !known.contains(name) {
            note("type", keyNode, "the type '\(name)' is not a JSON Schema type")
            return true
        }
        if names.contains(where: { Self.has(value, type: $0) }) { return true }
        refuse(
            path, place, "type", keyNode, expected: names.map(Self.article).joined(separator: " or "), actual: Self.typed(value.value))
        return false
    }

    /// A value as a type finding shows it: `null`, `a boolean true`, `a string "x"`, `an object {...}`, so
    /// that no word is said twice ("got null null").
    static func typed(_ value: JSONValue) -> String {
        value.isNull ? "null" : "\(value.typeDescription) \(describe(value))"
    }

    /// Where a member stands (its key) or an element, when the value it is in has a place.
    static func place(of member: JSONNode.Member, in parent: ValuePlace?) -> ValuePlace? {
        parent == nil ? nil : (member.keyLine, member.keyColumn)
    }

    static func place(of element: JSONNode, in parent: ValuePlace?) -> ValuePlace? {
        parent == nil ? nil : (element.line, element.column)
    }

    /// Whether `value` is of the JSON Schema type named `type`, read from its node (a
    /// collection is not made into a value for it).
    static func has(_ value: JSONNode, type: String) -> Bool {
        switch (type, value.kind) {
        case ("null", .null), ("boolean", .bool), ("object", .object), ("array", .array), ("string", .string), ("number", .number):
            true
        case ("integer", .number):
            value.numberValue.map { $0.isFinite && $0.rounded() == $0 } ?? false
        default:
            false
        }
    }

    private static func article(_ type: String) -> String {
        switch type {
        case "null": "null"
        case "object", "array", "integer": "an \(type)"
        default: "a \(type)"
        }
    }

    // MARK: Objects

    mutating func checkObject(
        _ value: JSONNode, _ key: String, _ keyNode: DocumentNode, _ keywordValue: DocumentNode, _ schema: DocumentNode,
        _ path: String, at place: ValuePlace?, depth: Int
    ) {
        guard let members = value.members else { return }
        switch key {
        case "properties":
            for member in members {
                guard let property = document.member(keywordValue, member.key) else { continue }
                check(
                    member.value, property, JSONPath.appending(path, key: member.key), at: Self.place(of: member, in: place),
                    depth: depth + 1)
            }
        case "required":
            guard !partial else { return }
            for name in document.elements(keywordValue) ?? [] {
                guard let text = document.string(name), !members.contains(where: { $0.key == text }) else { continue }
                let present = members.map(\.key).joined(separator: ", ")
                refuse(
                    path, place, "required", name, expected: "a member '\(text)'",
                    actual: "none" + (present.isEmpty ? " (no members)" : " (members: \(present))"))
            }
        case "additionalProperties":
            let named = document.member(schema, "properties").map { Set(document.members($0).map(\.key)) } ?? []
            for member in members where !named.contains(member.key) {
                let memberPath = JSONPath.appending(path, key: member.key)
                if document.bool(keywordValue) == false {
                    let allowed = named.sorted().joined(separator: ", ")
                    refuse(
                        memberPath, Self.place(of: member, in: place), "additionalProperties", keyNode,
                        expected: allowed.isEmpty ? "no members" : "only the members \(allowed)", actual: "a member '\(member.key)'")
                } else if document.kind(keywordValue) == .object {
                    check(member.value, keywordValue, memberPath, at: Self.place(of: member, in: place), depth: depth + 1)
                }
            }
        default:
            checkCount(members.count, of: "members", key, keyNode, keywordValue, path, at: place)
        }
    }

    // MARK: Arrays

    mutating func checkArray(
        _ value: JSONNode, _ key: String, _ keyNode: DocumentNode, _ keywordValue: DocumentNode, _ path: String, at place: ValuePlace?,
        depth: Int
    ) {
        guard let elements = value.elements else { return }
        switch key {
        case "items":
            if document.kind(keywordValue) == .array {
                return note("items", keyNode, "a list of schemas under 'items' (tuple validation) is not checked")
            }
            for (index, element) in elements.enumerated() {
                check(
                    element, keywordValue, JSONPath.appending(path, index: index), at: Self.place(of: element, in: place), depth: depth + 1)
            }
        case "uniqueItems":
            guard document.bool(keywordValue) == true else { return }
            var seen: Set<JSONValue> = []
            for (index, element) in elements.enumerated() where !seen.insert(element.value).inserted {
                refuse(
                    JSONPath.appending(path, index: index), Self.place(of: element, in: place), key, keyNode,
                    expected: "elements that are all different",
                    actual: "a repeated \(Self.describe(element.value))")
            }
        default:
            checkCount(elements.count, of: "elements", key, keyNode, keywordValue, path, at: place)
        }
    }

    // MARK: Strings

    mutating func checkString(
        _ value: JSONNode, _ key: String, _ keyNode: DocumentNode, _ keywordValue: DocumentNode, _ path: String, at place: ValuePlace?
    ) {
        guard let text = value.stringValue else { return }
        if key == "pattern" {
            guard let pattern = document.string(keywordValue), let expression = patterns.expression(pattern) else {
                return note(key, keyNode, "the pattern does not compile as a regular expression here")
            }
            let range = NSRange(text.startIndex..., in: text)
            if expression.firstMatch(in: text, range: range) == nil {
                refuse(path, place, key, keyNode, expected: "a string matching /\(pattern)/", actual: Self.describe(value.value))
            }
            return
        }
        // JSON Schema counts characters as Unicode code points.
        let count = text.unicodeScalars.count
        checkCount(
            count, of: "characters", key, keyNode, keywordValue, path, at: place, actual: "\(count) in \(Self.describe(value.value))")
    }

    /// `min…` and `max…` (`Items`, `Properties`, `Length`): `count` against the keyword's bound.
    private mutating func checkCount(
        _ count: Int, of noun: String, _ key: String, _ keyNode: DocumentNode, _ keywordValue: DocumentNode, _ path: String,
        at place: ValuePlace?, actual: String? = nil
    ) {
        guard let bound = document.number(keywordValue) else { return note(key, keyNode, "'\(key)' must be a number") }
        let lower = key.hasPrefix("min")
        if lower ? Double(count) < bound : Double(count) > bound {
            refuse(
                path, place, key, keyNode, expected: "\(lower ? "at least" : "at most") \(Int(bound)) \(noun)", actual: actual ?? "\(count)"
            )
        }
    }

    // MARK: Numbers

    mutating func checkNumber(
        _ value: JSONNode, _ key: String, _ keyNode: DocumentNode, _ keywordValue: DocumentNode, _ schema: DocumentNode, _ path: String,
        at place: ValuePlace?
    ) {
        guard let number = value.numberValue else { return }
        // 3.0 writes `exclusiveMinimum: true` beside `minimum`; 3.1 gives the bound itself.
        if document.kind(keywordValue) == .bool { return }
        guard let bound = document.number(keywordValue) else { return note(key, keyNode, "'\(key)' must be a number") }
        let document = self.document
        let exclusive = { (name: String) in document.member(schema, name).flatMap(document.bool) == true }
        let (fails, expected): (Bool, String) =
            switch key {
            case "minimum": exclusive("exclusiveMinimum") ? (number <= bound, "more than \(bound)") : (number < bound, "at least \(bound)")
            case "maximum": exclusive("exclusiveMaximum") ? (number >= bound, "less than \(bound)") : (number > bound, "at most \(bound)")
            case "exclusiveMinimum": (number <= bound, "more than \(bound)")
            case "exclusiveMaximum": (number >= bound, "less than \(bound)")
            default: (bound > 0 && (number / bound).rounded() != number / bound, "a multiple of \(bound)")
            }
        if fails { refuse(path, place, key, keyNode, expected: expected, actual: Self.describe(value.value)) }
    }

    // MARK: Formats and equality

    mutating func checkFormat(_ value: JSONNode, _ keyNode: DocumentNode, _ format: DocumentNode, _ path: String, at place: ValuePlace?) {
        guard let name = document.string(format) else { return note("format", keyNode, "'format' must be a name") }
        switch SchemaFormats.check(value.value, format: name) {
        case .unknown:
            noteFormat(keyNode, name)
        case .refused(let expected):
            refuse(path, place, "format", keyNode, expected: expected, actual: Self.describe(value.value))
        case .accepted:
            break
        }
    }

    mutating func checkEquality(
        _ value: JSONNode, _ key: String, _ keyNode: DocumentNode, _ keywordValue: DocumentNode, _ path: String, at place: ValuePlace?
    ) {
        let allowed = key == "const" ? [document.value(keywordValue)] : (document.elements(keywordValue) ?? []).map(document.value)
        guard !allowed.contains(value.value) else { return }
        let listed = allowed.prefix(8).map(Self.describe).joined(separator: ", ") + (allowed.count > 8 ? ", ..." : "")
        refuse(path, place, key, keyNode, expected: key == "const" ? listed : "one of \(listed)", actual: Self.describe(value.value))
    }
}
