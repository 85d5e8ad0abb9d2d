import Foundation
import ScenarioEngine

/// What a schema keyword refused: where in the value, where the value is written (when it came
/// from a scenario), the keyword's place in the document, and expected against actual.
package struct SchemaFinding: Sendable, Hashable {
    /// The JSON path inside the value: `$.data.users[0].id`.
    package var path: String
    /// Where the value stands in its file, when known.
    package var line: Int?
    package var column: Int?
    /// The keyword that refused it: `type`, `required`, ...
    package var keyword: String
    package var place: DocumentPlace
    package var expected: String
    package var actual: String
}

/// A keyword the validator met but does not check: the value was not checked against it.
package struct UncheckedKeyword: Sendable, Hashable {
    package var keyword: String
    package var place: DocumentPlace
    package var reason: String
}

/// Checks JSON values against the schemas of an OpenAPI 3.0 or 3.1 document: `type` (with 3.1's
/// type lists and 3.0's `nullable`), `properties`, `required`, `additionalProperties`, `items`,
/// `enum`, `const`, `allOf`, `anyOf`, `oneOf`, `not`, `$ref`, the numeric and length bounds,
/// `pattern` and the formats of ``SchemaFormats``. Loose as Pact is on answers: members a schema
/// does not name are fine unless `additionalProperties` says otherwise. A keyword it does not know
/// is recorded as unchecked, never passed silently.
package struct OpenAPISchemaValidator {
    let document: OpenAPIDocument
    /// Whether the value is a subset (a request matcher's body): then `required` is not checked.
    var partial = false
    package private(set) var findings: [SchemaFinding] = []
    package private(set) var unchecked: [UncheckedKeyword] = []
    private var uncheckedSeen: Set<UncheckedKeyword> = []
    /// `format` names it does not check: an annotation, as JSON Schema says, so the value passes
    /// them; listed, never counted as "could not check".
    package private(set) var formatsNotChecked: [UncheckedKeyword] = []
    private var formatsSeen: Set<UncheckedKeyword> = []
    let patterns: PatternCache

    /// Keywords that describe and never refuse.
    static let annotations: Set<String> = [
        "title", "description", "default", "example", "examples", "deprecated", "readOnly", "writeOnly", "xml", "externalDocs",
        "discriminator", "$comment", "$schema", "contentMediaType", "contentEncoding", "contentSchema",
    ]

    package init(document: OpenAPIDocument, partial: Bool = false, patterns: PatternCache = PatternCache()) {
        self.document = document
        self.partial = partial
        self.patterns = patterns
    }

    /// Where a value is written in its scenario: a member's key, an element, or where the body
    /// starts; `nil` for a value read from text (a `text` or `file` body), which has no place of its own.
    package typealias ValuePlace = (line: Int, column: Int)

    /// Checks `value`, written at `place`, against `schema`.
    package mutating func validate(_ value: JSONNode, against schema: DocumentNode, path: String = JSONPath.root, at place: ValuePlace?) {
        check(value, schema, path, at: place, depth: 0)
    }

    /// Whether no keyword refused anything.
    package var passed: Bool { findings.isEmpty }

    mutating func check(_ value: JSONNode, _ schema: DocumentNode, _ path: String, at place: ValuePlace?, depth: Int) {
        guard depth < 512 else {
            note("$ref", schema, "schemas nest deeper than 512 levels here")
            return
        }
        switch document.kind(schema) {
        case .bool:
            if document.bool(schema) == false {
                refuse(path, place, "false", schema, expected: "nothing (the schema is false)", actual: Self.describe(value.value))
            }
            return
        case .object:
            break
        default:
            note("schema", schema, "a schema must be a mapping or a Boolean")
            return
        }
        if let target = document.references[schema] {
            check(value, target, path, at: place, depth: depth + 1)
            // In 3.0 a `$ref` stands for its target and its siblings are ignored.
            if !document.isVersion31 { return }
        }
        let members = document.members(schema)
        // OAS 3.0.3: `nullable` adds null to the `type` of the same Schema Object, and does
        // nothing without one (beside `allOf`, `oneOf`, an `enum` that lists no null, null is
        // still refused); 3.1 has no such keyword (`type: [string, "null"]` says it).
        let nullable =
            !document.isVersion31 && (members.first { $0.key == "nullable" }.flatMap { document.bool($0.value) } ?? false)
        if let type = members.first(where: { $0.key == "type" }),
            !(nullable && value.kind == .null) && !checkType(value, type.keyNode, type.value, path, at: place)
        {
            return
        }
        for (key, keyNode, keywordValue) in members {
            switch key {
            case "$ref", "type", "nullable":
                continue
            case "properties", "required", "additionalProperties", "minProperties", "maxProperties":
                checkObject(value, key, keyNode, keywordValue, schema, path, at: place, depth: depth)
            case "items", "minItems", "maxItems", "uniqueItems":
                checkArray(value, key, keyNode, keywordValue, path, at: place, depth: depth)
            case "minLength", "maxLength", "pattern":
                checkString(value, key, keyNode, keywordValue, path, at: place)
            case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
                checkNumber(value, key, keyNode, keywordValue, schema, path, at: place)
            case "format":
                checkFormat(value, keyNode, keywordValue, path, at: place)
            case "enum", "const":
                checkEquality(value, key, keyNode, keywordValue, path, at: place)
            case "allOf", "anyOf", "oneOf", "not":
                checkComposition(value, key, keyNode, keywordValue, path, at: place, depth: depth)
            default:
                if Self.annotations.contains(key) || key.hasPrefix("x-") { continue }
                note(key, keyNode, "the keyword '\(key)' is not one this verifier checks")
            }
        }
    }

    // MARK: Composition

    private mutating func checkComposition(
        _ value: JSONNode, _ key: String, _ keyNode: DocumentNode, _ keywordValue: DocumentNode, _ path: String, at place: ValuePlace?,
        depth: Int
    ) {
        if key == "not" {
            var branch = branchValidator()
            branch.check(value, keywordValue, path, at: place, depth: depth + 1)
            merge(branch)
            if branch.passed {
                refuse(path, place, key, keyNode, expected: "a value the 'not' schema refuses", actual: Self.describe(value.value))
            }
            return
        }
        guard let branches = document.elements(keywordValue), !branches.isEmpty else {
            note(key, keyNode, "'\(key)' must be a non-empty list of schemas")
            return
        }
        if key == "allOf" {
            for branch in branches { check(value, branch, path, at: place, depth: depth + 1) }
            return
        }
        var results: [OpenAPISchemaValidator] = []
        for branch in branches {
            var validator = branchValidator()
            validator.check(value, branch, path, at: place, depth: depth + 1)
            merge(validator)
            results.append(validator)
        }
        let passing = results.filter(\.passed).count
        if passing == 1 || (key == "anyOf" && passing > 1) { return }
        if passing > 1 {
            refuse(
                path, place, key, keyNode, expected: "a value matching exactly one of its \(branches.count) schemas",
                actual: "\(Self.describe(value.value)) matches \(passing) of them")
            return
        }
        // Say what the closest schema refused, so the finding can be acted on.
        let closest = results.enumerated().min { $0.element.findings.count < $1.element.findings.count }
        let reason = closest.flatMap { entry in
            entry.element.findings.first.map {
                "closest, schema \(entry.offset + 1): at \($0.path) expected \($0.expected), got \($0.actual)"
            }
        }
        refuse(
            path, place, key, keyNode,
            expected: "a value matching \(key == "oneOf" ? "one" : "any") of its \(branches.count) schemas",
            actual: Self.describe(value.value) + (reason.map { " (\($0))" } ?? ""))
    }

    private func branchValidator() -> OpenAPISchemaValidator {
        OpenAPISchemaValidator(document: document, partial: partial, patterns: patterns)
    }

    // MARK: Recording

    mutating func refuse(
        _ path: String, _ place: ValuePlace?, _ keyword: String, _ keywordNode: DocumentNode, expected: String, actual: String
    ) {
        findings.append(
            SchemaFinding(
                path: path, line: place?.line, column: place?.column, keyword: keyword, place: document.place(keywordNode),
                expected: expected, actual: actual))
    }

    mutating func note(_ keyword: String, _ place: DocumentNode, _ reason: String) {
        let entry = UncheckedKeyword(keyword: keyword, place: document.place(place), reason: reason)
        if uncheckedSeen.insert(entry).inserted { unchecked.append(entry) }
    }

    /// Notes that a value met a `format` this validator does not check.
    mutating func noteFormat(_ place: DocumentNode, _ name: String) {
        let entry = UncheckedKeyword(keyword: "format", place: document.place(place), reason: "the format '\(name)' is not checked")
        if formatsSeen.insert(entry).inserted { formatsNotChecked.append(entry) }
    }

    private mutating func merge(_ branch: OpenAPISchemaValidator) {
        for entry in branch.unchecked where uncheckedSeen.insert(entry).inserted { unchecked.append(entry) }
        for entry in branch.formatsNotChecked where formatsSeen.insert(entry).inserted { formatsNotChecked.append(entry) }
    }

    /// A value as a finding shows it: its JSON, cut at 80 characters.
    static func describe(_ value: JSONValue) -> String {
        let text = value.compactText
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}

/// Compiled `pattern`s, shared by the validators of a run (a pattern that does not compile is
/// remembered as such).
package final class PatternCache: @unchecked Sendable {
    private var compiled: [String: NSRegularExpression?] = [:]
    private let lock = NSLock()

    package init() {}

    func expression(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        let expression = try? NSRegularExpression(pattern: pattern)
        compiled[pattern] = expression
        return expression
    }
}
