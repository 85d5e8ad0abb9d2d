import Foundation
import HTTPCore
import ScenarioEngine

/// The scripted body against the shape of the captured ones: every member path the captures have
/// (array elements as `[]`), with the JSON types seen at each.
extension TraceVerifier {
    struct Shape {
        var types: [String: Set<String>] = [:]
        /// The member names the captures have in the object at each path.
        var members: [String: Set<String>] = [:]

        mutating func record(_ node: JSONNode, at path: String) {
            types[path, default: []].insert(TraceVerifier.typeName(node.kind))
            for member in node.members ?? [] {
                members[path, default: []].insert(member.key)
                record(member.value, at: JSONPath.appending(path, key: member.key))
            }
            for element in node.elements ?? [] { record(element, at: path + "[]") }
        }
    }

    /// The JSON type name of a node of a parsed body.
    static func typeName(_ kind: DocumentTree.Kind) -> String {
        switch kind {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    func compareBody(
        _ response: HTTPResponse, with captures: [Capture], example: Capture, source: ExchangeSource, into verdict: inout ExchangeVerdict
    ) {
        var shape = Shape()
        for capture in captures {
            if let body = try? JSONTextParser(data: capture.response.body, file: capture.place.file).parseDocument() {
                shape.record(body, at: JSONPath.root)
            }
        }
        // Captures that are not JSON leave nothing to compare a body with.
        guard !shape.types.isEmpty, !response.body.isEmpty else { return }
        let keys = [ScenarioKey.response, source.bodyKey ?? ScenarioKey.status]
        let holder = source.location(keys)
        let node: JSONNode
        let located: Bool
        if source.bodyKey == ScenarioKey.json, let written = source.node(ScenarioKey.response, ScenarioKey.json) {
            node = written
            located = true
        } else if let parsed = try? JSONTextParser(data: response.body, file: source.file).parseDocument() {
            node = parsed
            located = false
        } else {
            verdict.findings.append(
                ContractFinding(
                    .typeNeverCaptured, at: holder, source: example.place, expected: "a JSON body, as the captures have",
                    actual: "a body that is not JSON"))
            return
        }
        var walker = Walker(shape: shape, source: source, keys: keys, example: example.place, located: located)
        walker.walk(node, path: JSONPath.root, line: holder.line, column: holder.column)
        verdict.findings += walker.findings
    }

    private struct Walker {
        let shape: Shape
        let source: ExchangeSource
        let keys: [String]
        let example: DocumentPlace
        let located: Bool
        var findings: [ContractFinding] = []

        mutating func walk(_ node: JSONNode, path: String, shapePath: String? = nil, line: Int, column: Int) {
            let shapePath = shapePath ?? path
            let seen = shape.types[shapePath] ?? []
            let type = TraceVerifier.typeName(node.kind)
            guard seen.contains(type) else {
                findings.append(
                    finding(
                        .typeNeverCaptured, path: path, line: line, column: column,
                        expected: seen.sorted().joined(separator: " or ") + " (what the captures have here)",
                        actual: "\(type) \(OpenAPISchemaValidator.describe(node.value))"))
                return
            }
            if let members = node.members {
                for member in members {
                    let memberShape = JSONPath.appending(shapePath, key: member.key)
                    let memberPath = JSONPath.appending(path, key: member.key)
                    guard shape.types[memberShape] != nil else {
                        let known = (shape.members[shapePath] ?? []).sorted().prefix(8).joined(separator: ", ")
                        findings.append(
                            finding(
                                .memberNeverCaptured, path: memberPath, line: member.keyLine, column: member.keyColumn,
                                expected: "a member the captures have here (\(known.isEmpty ? "none" : known))", actual: "'\(member.key)'"))
                        continue
                    }
                    walk(member.value, path: memberPath, shapePath: memberShape, line: member.keyLine, column: member.keyColumn)
                }
            } else if let elements = node.elements, shape.types[shapePath + "[]"] != nil {
                for (index, element) in elements.enumerated() {
                    walk(
                        element, path: JSONPath.appending(path, index: index), shapePath: shapePath + "[]", line: element.line,
                        column: element.column)
                }
            }
        }

        private func finding(_ kind: ContractFinding.Kind, path: String, line: Int, column: Int, expected: String, actual: String)
            -> ContractFinding
        {
            ContractFinding(
                kind, at: source.location(in: keys, line: located ? line : nil, column: located ? column : nil, bodyPath: path),
                source: example,
                bodyPath: path, expected: expected, actual: actual)
        }
    }
}
