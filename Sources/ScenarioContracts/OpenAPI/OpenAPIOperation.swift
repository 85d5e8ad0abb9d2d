import Foundation
import ScenarioEngine

/// One operation of an API document: a method on a path template, its parameters, request body,
/// responses and credentials.
package struct OpenAPIOperation: Sendable {
    /// One segment of a path template.
    enum Segment: Sendable, Equatable {
        case literal(String)
        /// `{name}`, with any text around it in the segment (`{name}.json`).
        case parameter(name: String, prefix: String, suffix: String)
    }

    /// A parameter, with the operation's own overriding the path item's of the same name and place.
    package struct Parameter: Sendable {
        package var name: String
        /// `path`, `query`, `header` or `cookie`.
        package var location: String
        package var required: Bool
        package var schema: DocumentNode?
        package var node: DocumentNode
    }

    /// `GET`, `POST`, ...
    package var method: String
    /// `/users/{id}/block`.
    package var template: String
    var segments: [Segment]
    /// The method's key in the path item, where findings about the operation point.
    package var key: DocumentNode
    package var parameters: [Parameter]
    package var requestBody: DocumentNode?
    package var responses: DocumentNode?
    /// The `responses` key, where a status the document does not list is pointed at.
    package var responsesKey: DocumentNode?
    /// Alternatives of security scheme names; `nil` when the document names none, `[]` when the
    /// operation says it takes no credentials.
    package var security: [[String]]?

    /// `GET /users/{id}`.
    package var name: String { "\(method) \(template)" }
}

extension OpenAPIDocument {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    mutating func indexOperations() throws(LoadIssue) {
        let root = self.root
        serverPrefixes = serverPaths(root)
        let globalSecurity = member(root, "security").map(securityRequirements)
        guard let paths = member(root, "paths") else { return }
        for (template, templateKey, rawItem) in members(paths) {
            guard template.hasPrefix("/") else {
                throw issue(templateKey, "the path '\(TerminalSafe.escape(template))' must start with '/'")
            }
            let item = resolved(rawItem)
            guard kind(item) == .object else { throw issue(rawItem, "the path item of \(TerminalSafe.escape(template)) must be a mapping") }
            let shared = try parameters(of: item)
            for (key, keyNode, rawOperation) in members(item) where Self.methods.contains(key) {
                let operation = resolved(rawOperation)
                guard kind(operation) == .object else {
                    throw issue(rawOperation, "the operation \(key.uppercased()) \(TerminalSafe.escape(template)) must be a mapping")
                }
                var merged = shared
                for parameter in try parameters(of: operation) {
                    merged.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                    merged.append(parameter)
                }
                let responsesEntry = memberEntry(operation, "responses")
                let responses = responsesEntry.map { resolved($0.value) }
                if let responses, kind(responses) != .object {
                    throw issue(responses, "the responses of \(key.uppercased()) \(TerminalSafe.escape(template)) must be a mapping")
                }
                operations.append(
                    OpenAPIOperation(
                        method: key.uppercased(), template: template, segments: Self.segments(of: template), key: keyNode,
                        parameters: merged, requestBody: member(operation, "requestBody").map(resolved), responses: responses,
                        responsesKey: responsesEntry?.key,
                        security: member(operation, "security").map(securityRequirements) ?? globalSecurity))
            }
        }
    }

    private func parameters(of node: DocumentNode) throws(LoadIssue) -> [OpenAPIOperation.Parameter] {
        guard let list = member(node, "parameters") else { return [] }
        guard let elements = elements(list) else { throw issue(list, "'parameters' must be a list") }
        var found: [OpenAPIOperation.Parameter] = []
        for raw in elements {
            let parameter = resolved(raw)
            guard let name = member(parameter, "name").flatMap(string), let location = member(parameter, "in").flatMap(string) else {
                throw issue(raw, "a parameter needs a 'name' and an 'in' (path, query, header or cookie)")
            }
            var schema = member(parameter, "schema")
            if schema == nil, let content = member(parameter, "content"), let first = members(content).first {
                schema = member(first.value, "schema")
            }
            found.append(
                OpenAPIOperation.Parameter(
                    name: name, location: location, required: member(parameter, "required").flatMap(bool) ?? (location == "path"),
                    schema: schema, node: parameter))
        }
        return found
    }

    private func securityRequirements(_ node: DocumentNode) -> [[String]] {
        (elements(node) ?? []).map { requirement in members(requirement).map(\.key) }
    }

    /// The path prefixes of the `servers` (`https://api.example.com/v1` gives `/v1`).
    private func serverPaths(_ root: DocumentNode) -> [String] {
        guard let servers = member(root, "servers").flatMap(elements) else { return [] }
        var prefixes: [String] = []
        for server in servers {
            guard let url = member(server, "url").flatMap(string) else { continue }
            var path = url
            if let scheme = url.range(of: "://") {
                let rest = url[scheme.upperBound...]
                path = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
            }
            while path.hasSuffix("/") { path.removeLast() }
            if !path.isEmpty, !path.contains("{"), !prefixes.contains(path) { prefixes.append(path) }
        }
        return prefixes
    }

    static func segments(of template: String) -> [OpenAPIOperation.Segment] {
        template.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
            guard let open = part.firstIndex(of: "{"), let close = part[open...].firstIndex(of: "}") else {
                return .literal(String(part))
            }
            return .parameter(
                name: String(part[part.index(after: open)..<close]), prefix: String(part[..<open]),
                suffix: String(part[part.index(after: close)...]))
        }
    }

    /// The security scheme `name` describes: its `type`, `scheme` (http) and header name (apiKey).
    func securityScheme(_ name: String) -> (type: String, scheme: String?, header: String?)? {
        guard let scheme = member(root, "components").flatMap({ member($0, "securitySchemes") }).flatMap({ member($0, name) })
        else { return nil }
        let resolvedScheme = resolved(scheme)
        let type = member(resolvedScheme, "type").flatMap(string) ?? ""
        let header = member(resolvedScheme, "in").flatMap(string) == "header" ? member(resolvedScheme, "name").flatMap(string) : nil
        return (type, member(resolvedScheme, "scheme").flatMap(string)?.lowercased(), header)
    }
}
