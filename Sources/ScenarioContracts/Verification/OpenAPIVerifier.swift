import Foundation
import HTTPCore
import ScenarioEngine

/// Checks every scripted exchange against an OpenAPI document: its request must be an operation
/// of the document (path template, method, the parameters and headers the matcher pins, its
/// body), and its answer must be documented (status, required headers, media type, and the body
/// against the response schema).
package struct OpenAPIVerifier: ExchangeVerifier {
    package let document: OpenAPIDocument
    let patterns = PatternCache()

    /// Request headers a client sends whatever the API: never looked up among the parameters.
    static let transportHeaders: Set<String> = [
        "accept", "accept-encoding", "accept-language", "user-agent", "content-length", "host", "connection", "cache-control",
        "pragma", "if-none-match", "if-modified-since", "origin", "referer", "cookie", "content-type",
    ]

    package init(document: OpenAPIDocument) { self.document = document }

    package func check(_ exchange: Exchange, source: ExchangeSource, into verdict: inout ExchangeVerdict) {
        let operation: OpenAPIOperation
        let pathValues: [String: String]
        switch document.route(method: exchange.request.method?.rawValue, path: exchange.request.path) {
        case .operation(let found, let values):
            operation = found
            pathValues = values
        case .tooBroad(let reason):
            verdict.unchecked.append(UncheckedPart(reason + ", so no one operation of the document stands for it"))
            return
        case .pathNotDocumented(let nearest):
            let written =
                exchange.request.path.map { if case .pattern = $0 { ScenarioKey.pathPattern } else { ScenarioKey.path } }
                ?? ScenarioKey.path
            verdict.findings.append(
                ContractFinding(
                    .pathNotDocumented, at: source.location(ScenarioKey.request, written),
                    source: document.memberEntry(document.root, "paths").map { document.place($0.key) },
                    expected: "a path of the document" + (nearest.map { " (the nearest is \($0))" } ?? ""),
                    actual: Self.pathText(exchange.request.path)))
            return
        case .methodNotDocumented(let template, let documented, let at):
            verdict.findings.append(
                ContractFinding(
                    .methodNotDocumented, at: source.location(ScenarioKey.request, ScenarioKey.method), source: document.place(at),
                    expected: "one of \(documented.joined(separator: ", ")) on \(template)",
                    actual: exchange.request.method?.rawValue ?? "any"))
            return
        }
        checkRequest(exchange.request, operation: operation, pathValues: pathValues, source: source, into: &verdict)
        if case .response(let response) = exchange.reply {
            checkResponse(response, operation: operation, source: source, into: &verdict)
        }
    }

    static func pathText(_ rule: PathRule?) -> String {
        switch rule {
        case .exact(let path)?: path
        case .pattern(let pattern)?: pattern
        case nil: "any path"
        }
    }

    // MARK: The request

    private func checkRequest(
        _ request: RequestMatcher, operation: OpenAPIOperation, pathValues: [String: String], source: ExchangeSource,
        into verdict: inout ExchangeVerdict
    ) {
        let pathKey = request.path.map { if case .pattern = $0 { ScenarioKey.pathPattern } else { ScenarioKey.path } } ?? ScenarioKey.path
        for parameter in operation.parameters where parameter.location == "path" {
            guard let value = pathValues[parameter.name] else { continue }
            checkParameter(
                parameter, text: value, at: source.location(ScenarioKey.request, pathKey), into: &verdict, kind: .parameterRefused)
        }
        for (name, value) in request.query {
            guard let parameter = operation.parameters.first(where: { $0.location == "query" && $0.name == name }) else {
                verdict.findings.append(
                    ContractFinding(
                        .parameterNotDocumented, at: source.location(ScenarioKey.request, ScenarioKey.query, name),
                        source: document.place(operation.key),
                        expected: "a query parameter of \(operation.name) (\(names(operation, "query")))", actual: "'\(name)'"))
                continue
            }
            checkParameter(
                parameter, text: value, at: source.location(ScenarioKey.request, ScenarioKey.query, name), into: &verdict,
                kind: .parameterRefused)
        }
        for field in request.headers {
            let lowered = field.name.lowercased()
            let location = source.location(ScenarioKey.request, ScenarioKey.headers, field.name)
            if lowered == "authorization" {
                checkCredentials(field.value, operation: operation, at: location, into: &verdict)
            } else if let parameter = operation.parameters.first(where: { $0.location == "header" && $0.name.lowercased() == lowered }) {
                checkParameter(parameter, text: field.value, at: location, into: &verdict, kind: .parameterRefused)
            } else if !Self.transportHeaders.contains(lowered), !isSecurityHeader(lowered, operation) {
                verdict.findings.append(
                    ContractFinding(
                        .parameterNotDocumented, at: location, source: document.place(operation.key),
                        expected: "a header parameter of \(operation.name) (\(names(operation, "header")))", actual: "'\(field.name)'"))
            }
        }
        checkRequestBody(request, operation: operation, source: source, into: &verdict)
    }

    private func names(_ operation: OpenAPIOperation, _ location: String) -> String {
        let names = operation.parameters.filter { $0.location == location }.map(\.name)
        return names.isEmpty ? "it has none" : names.joined(separator: ", ")
    }

    private func isSecurityHeader(_ lowered: String, _ operation: OpenAPIOperation) -> Bool {
        (operation.security ?? []).joined().contains { document.securityScheme($0)?.header?.lowercased() == lowered }
    }

    /// An `Authorization` the matcher pins needs an operation that takes credentials, in the
    /// form its scheme says.
    private func checkCredentials(
        _ value: String, operation: OpenAPIOperation, at location: ScenarioLocation, into verdict: inout ExchangeVerdict
    ) {
        let alternatives = operation.security ?? []
        guard alternatives.contains(where: { !$0.isEmpty }) else {
            verdict.findings.append(
                ContractFinding(
                    .credentialsNotDocumented, at: location, source: document.place(operation.key),
                    expected: "no credentials (\(operation.name) documents no security)", actual: "an Authorization header"))
            return
        }
        let schemes = alternatives.joined().compactMap { document.securityScheme($0) }
        let prefixes = schemes.compactMap { scheme -> String? in
            switch (scheme.type, scheme.scheme) {
            case ("http", "bearer"?), ("oauth2", _), ("openIdConnect", _): "Bearer "
            case ("http", "basic"?): "Basic "
            default: nil
            }
        }
        if !prefixes.isEmpty, !prefixes.contains(where: { value.lowercased().hasPrefix($0.lowercased()) }) {
            verdict.findings.append(
                ContractFinding(
                    .parameterRefused, at: location, source: document.place(operation.key),
                    expected: "Authorization: \(prefixes.map { $0 + "…" }.joined(separator: " or "))", actual: value))
        }
    }

    /// A parameter's or header's text checked against its schema, read as the type it declares.
    func checkParameter(
        _ parameter: OpenAPIOperation.Parameter, text: String, at location: ScenarioLocation, into verdict: inout ExchangeVerdict,
        kind: ContractFinding.Kind
    ) {
        guard let schema = parameter.schema else { return }
        checkText(text, schema: schema, at: location, name: parameter.name, into: &verdict, kind: kind)
    }

    func checkText(
        _ text: String, schema: DocumentNode, at location: ScenarioLocation, name: String, into verdict: inout ExchangeVerdict,
        kind: ContractFinding.Kind
    ) {
        let value = JSONNode(value: SchemaCoercion.value(of: text, for: schema, in: document), line: location.line, column: location.column)
        var validator = OpenAPISchemaValidator(document: document, patterns: patterns)
        validator.validate(value, against: schema, path: "$", at: (location.line, location.column))
        for finding in validator.findings {
            verdict.findings.append(
                ContractFinding(
                    kind, at: location, source: finding.place, bodyPath: name, expected: finding.expected, actual: finding.actual))
        }
        verdict.record(validator)
    }

    private func checkRequestBody(
        _ request: RequestMatcher, operation: OpenAPIOperation, source: ExchangeSource, into verdict: inout ExchangeVerdict
    ) {
        guard let body = request.body else { return }
        let key = request.body.map { if case .text = $0 { "text" } else { "json" } } ?? "json"
        guard let requestBody = operation.requestBody else {
            verdict.findings.append(
                ContractFinding(
                    .requestBodyNotDocumented, at: source.location(ScenarioKey.request, key), source: document.place(operation.key),
                    expected: "no request body (\(operation.name) documents none)", actual: "a body"))
            return
        }
        let declared = request.headers["Content-Type"]
        let mediaType = MediaTypes.essence(declared ?? (key == "json" ? "application/json" : "text/plain"))
        guard let content = document.member(requestBody, "content").map(document.resolved),
            let media = MediaTypes.select(mediaType, in: content, document: document)
        else {
            let documented = document.member(requestBody, "content").map { document.members($0).map(\.key) } ?? []
            verdict.findings.append(
                ContractFinding(
                    .mediaTypeNotDocumented, at: source.location(ScenarioKey.request, key), source: document.place(requestBody),
                    expected: "a request body of \(documented.joined(separator: ", "))", actual: mediaType))
            return
        }
        guard let schema = document.member(media, "schema") else { return }
        var validator = OpenAPISchemaValidator(document: document, partial: true, patterns: patterns)
        switch body {
        case .jsonSubset:
            guard let node = source.node(ScenarioKey.request, ScenarioKey.json) else { return }
            let holder = source.location(ScenarioKey.request, ScenarioKey.json)
            validator.validate(node, against: schema, at: (holder.line, holder.column))
        case .text(let text):
            guard let value = MediaTypes.value(ofText: text, mediaType: mediaType, schema: schema, document: document) else { return }
            validator.validate(value, against: schema, at: nil)
        }
        for finding in validator.findings {
            verdict.findings.append(
                ContractFinding(
                    .requestBodyRefused,
                    at: source.location(
                        in: [ScenarioKey.request, key], line: finding.line, column: finding.column, bodyPath: finding.path),
                    source: finding.place, bodyPath: finding.path, expected: finding.expected, actual: finding.actual))
        }
        verdict.record(validator)
    }
}
