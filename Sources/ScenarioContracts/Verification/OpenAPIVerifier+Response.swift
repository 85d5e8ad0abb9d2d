import Foundation
import HTTPCore
import ScenarioEngine

/// The answer: its status (or its `4XX` range, or `default`), the headers the document requires,
/// and the body against the schema of its media type. Loose as Pact is: headers and members the
/// document does not name are fine.
extension OpenAPIVerifier {
    func checkResponse(_ response: HTTPResponse, operation: OpenAPIOperation, source: ExchangeSource, into verdict: inout ExchangeVerdict) {
        let statusLocation = source.location(ScenarioKey.response, ScenarioKey.status)
        guard let responses = operation.responses else {
            verdict.unchecked.append(UncheckedPart("\(operation.name) documents no responses", source: document.place(operation.key)))
            return
        }
        let code = String(response.status.code)
        let listed = document.members(responses)
        let range = "\(code.prefix(1))XX"
        guard
            let entry = listed.first(where: { $0.key == code }) ?? listed.first(where: { $0.key.uppercased() == range })
                ?? listed.first(where: { $0.key == "default" })
        else {
            verdict.findings.append(
                ContractFinding(
                    .statusNotDocumented, at: statusLocation, source: document.place(operation.responsesKey ?? responses),
                    expected: "one of \(listed.map(\.key).joined(separator: ", ")) (the statuses of \(operation.name))", actual: code))
            return
        }
        let documented = document.resolved(entry.value)
        checkHeaders(response, documented: documented, source: source, into: &verdict)
        checkBody(response, documented: documented, status: entry.keyNode, operation: operation, source: source, into: &verdict)
    }

    private func checkHeaders(
        _ response: HTTPResponse, documented: DocumentNode, source: ExchangeSource, into verdict: inout ExchangeVerdict
    ) {
        guard let headers = document.member(documented, "headers") else { return }
        // OpenAPI ignores a `Content-Type` header here: the media type says it.
        for (name, keyNode, raw) in document.members(headers) where name.lowercased() != "content-type" {
            let header = document.resolved(raw)
            guard let scripted = response.headers[name] else {
                if document.member(header, "required").flatMap(document.bool) == true {
                    verdict.findings.append(
                        ContractFinding(
                            .headerMissing, at: source.location(ScenarioKey.response, ScenarioKey.headers), source: document.place(keyNode),
                            expected: "a header \(name)", actual: "none"))
                }
                continue
            }
            guard let schema = document.member(header, "schema") else { continue }
            checkText(
                scripted, schema: schema, at: source.location(ScenarioKey.response, ScenarioKey.headers, name), name: name, into: &verdict,
                kind: .headerRefused
            )
        }
    }

    private func checkBody(
        _ response: HTTPResponse, documented: DocumentNode, status: DocumentNode, operation: OpenAPIOperation, source: ExchangeSource,
        into verdict: inout ExchangeVerdict
    ) {
        let content = document.member(documented, "content").map(document.resolved)
        let mediaTypes = content.map { document.members($0).map(\.key) } ?? []
        let bodyKey = source.bodyKey
        let bodyLocation =
            bodyKey.map { source.location(ScenarioKey.response, $0) } ?? source.location(ScenarioKey.response, ScenarioKey.status)
        let code = response.status.code
        guard let content, !mediaTypes.isEmpty else {
            if !response.body.isEmpty {
                verdict.findings.append(
                    ContractFinding(
                        .bodyNotDocumented, at: bodyLocation, source: document.place(status),
                        expected: "no body (\(code) of \(operation.name) documents none)", actual: "a body of \(response.body.count) bytes")
                )
            }
            return
        }
        guard !response.body.isEmpty else {
            // `*/*` takes anything, nothing included (a gateway's empty answer).
            if !mediaTypes.contains("*/*") {
                verdict.findings.append(
                    ContractFinding(
                        .bodyMissing, at: bodyLocation, source: document.place(content),
                        expected: "a body of \(mediaTypes.joined(separator: ", "))", actual: "none"))
            }
            return
        }
        let declared = response.headers["Content-Type"].map(MediaTypes.essence)
        guard let media = MediaTypes.select(declared ?? "*/*", in: content, document: document) else {
            verdict.findings.append(
                ContractFinding(
                    .mediaTypeNotDocumented, at: source.written(ScenarioKey.response, ScenarioKey.headers, "Content-Type") ?? bodyLocation,
                    source: document.place(content), expected: "a body of \(mediaTypes.joined(separator: ", "))",
                    actual: declared ?? "a body without a Content-Type"))
            return
        }
        guard let schema = document.member(media, "schema") else { return }
        let mediaType = declared ?? "application/json"
        var validator = OpenAPISchemaValidator(document: document, patterns: patterns)
        if bodyKey == ScenarioKey.json, MediaTypes.isJSON(mediaType), let node = source.node(ScenarioKey.response, ScenarioKey.json) {
            validator.validate(node, against: schema, at: (bodyLocation.line, bodyLocation.column))
        } else if MediaTypes.isJSON(mediaType) {
            guard let node = try? JSONTextParser(data: response.body, file: source.file).parseDocument() else {
                verdict.findings.append(
                    ContractFinding(
                        .bodyNotJSON, at: bodyLocation, source: document.place(media), expected: "a JSON body (\(mediaType))",
                        actual: "a body that is not JSON"))
                return
            }
            validator.validate(node, against: schema, at: nil)
        } else if let text = String(data: response.body, encoding: .utf8), mediaType.hasPrefix("text/") {
            validator.validate(
                JSONNode(value: .string(text), line: bodyLocation.line, column: bodyLocation.column), against: schema, at: nil)
        } else {
            return
        }
        let keys = [ScenarioKey.response, bodyKey ?? ScenarioKey.status]
        for finding in validator.findings {
            verdict.findings.append(
                ContractFinding(
                    .bodyRefused, at: source.location(in: keys, line: finding.line, column: finding.column, bodyPath: finding.path),
                    source: finding.place, bodyPath: finding.path, expected: finding.expected, actual: finding.actual))
        }
        verdict.record(validator)
    }
}

extension ExchangeVerdict {
    /// What a schema validation could not check, and the formats it met and does not check.
    mutating func record(_ validator: OpenAPISchemaValidator) {
        unchecked += validator.unchecked.map { UncheckedPart($0.reason, source: $0.place) }
        for format in validator.formatsNotChecked {
            let part = UncheckedPart(format.reason, source: format.place)
            if !formatsNotChecked.contains(part) { formatsNotChecked.append(part) }
        }
    }
}
