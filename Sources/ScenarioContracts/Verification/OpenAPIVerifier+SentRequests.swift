import Foundation
import HTTPCore
import ScenarioEngine

/// The requests the app sent in a scenario's run, checked against the operation that answers
/// them: the path and query parameters (required ones there, each fitting its schema), required
/// header parameters, the security requirement (credentials in the form the scheme says), and the
/// body (there when required, of a documented media type, and fitting the schema whole: its
/// `required` members too). A finding stands at the step whose action sent the request and at the
/// document's keyword; it is counted on the exchange that answered the request.
extension OpenAPIVerifier {
    /// Adds to `verdict` what the document refuses in the requests of `record` (a run of `scenario`).
    /// Returns how many requests were checked.
    @discardableResult
    package func checkSent(_ record: RunRecord, of scenario: Scenario, into verdict: inout ScenarioVerdict) -> Int {
        let steps = SentRequestSteps(scenario)
        var checked = 0
        for sent in record.requests {
            guard let id = sent.exchange, let index = verdict.exchanges.firstIndex(where: { $0.id == id }),
                verdict.exchanges[index].skipReason == nil,
                case .operation(let operation, let pathValues) = document.route(
                    method: sent.request.method.rawValue, path: .exact(sent.request.path))
            else { continue }
            checked += 1
            var found = ExchangeVerdict(id: id, location: verdict.exchanges[index].location, route: verdict.exchanges[index].route)
            check(sent.request, operation: operation, pathValues: pathValues, at: steps.location(of: sent, in: record), into: &found)
            for finding in found.findings {
                var numbered = finding
                numbered.sentRequest = sent.number
                if !verdict.exchanges[index].findings.contains(numbered) { verdict.exchanges[index].findings.append(numbered) }
            }
            verdict.exchanges[index].unchecked += found.unchecked.filter { !verdict.exchanges[index].unchecked.contains($0) }
            verdict.exchanges[index].formatsNotChecked += found.formatsNotChecked.filter {
                !verdict.exchanges[index].formatsNotChecked.contains($0)
            }
        }
        return checked
    }

    private func check(
        _ request: HTTPRequest, operation: OpenAPIOperation, pathValues: [String: String], at location: ScenarioLocation,
        into verdict: inout ExchangeVerdict
    ) {
        for parameter in operation.parameters {
            let value: String?
            switch parameter.location {
            case "path": value = pathValues[parameter.name]
            case "query": value = request.query.first { $0.name == parameter.name }.map { $0.value ?? "" }
            case "header": value = request.headers[parameter.name]
            default: continue
            }
            guard let value else {
                if parameter.required {
                    verdict.findings.append(
                        ContractFinding(
                            .parameterMissing, at: location, source: document.place(parameter.node), bodyPath: parameter.name,
                            expected: "the required \(parameter.location) parameter '\(parameter.name)'", actual: "none"))
                }
                continue
            }
            checkParameter(parameter, text: value, at: location, into: &verdict, kind: .parameterRefused)
        }
        checkSecurity(request, operation: operation, at: location, into: &verdict)
        checkSentBody(request, operation: operation, at: location, into: &verdict)
    }

    /// One alternative of the operation's security requirement must be met, each of its schemes
    /// in its form: `Authorization: Bearer …` for http bearer, OAuth 2 and OpenID Connect, `Basic …`
    /// for http basic, the named header, query item or cookie for an API key.
    private func checkSecurity(
        _ request: HTTPRequest, operation: OpenAPIOperation, at location: ScenarioLocation, into verdict: inout ExchangeVerdict
    ) {
        let alternatives = operation.security ?? []
        guard !alternatives.isEmpty, !alternatives.contains(where: \.isEmpty) else { return }
        let authorization = request.headers["Authorization"]?.lowercased() ?? ""
        func met(_ name: String) -> Bool {
            guard let scheme = document.securityScheme(name), let resolved = schemeNode(name) else { return true }
            switch (scheme.type, scheme.scheme) {
            case ("http", "bearer"?), ("oauth2", _), ("openIdConnect", _): return authorization.hasPrefix("bearer ")
            case ("http", "basic"?): return authorization.hasPrefix("basic ")
            case ("http", let other?): return authorization.hasPrefix(other + " ")
            case ("apiKey", _):
                let keyName = document.member(resolved, "name").flatMap(document.string) ?? ""
                switch document.member(resolved, "in").flatMap(document.string) {
                case "header": return request.headers[keyName] != nil
                case "query": return request.query.contains { $0.name == keyName }
                case "cookie": return request.headers["Cookie"]?.contains(keyName + "=") == true
                default: return true
                }
            default: return true
            }
        }
        guard !alternatives.contains(where: { $0.allSatisfy(met) }) else { return }
        let wanted = alternatives.map { $0.joined(separator: " and ") }.joined(separator: " or ")
        verdict.findings.append(
            ContractFinding(
                .credentialsMissing, at: location, source: document.place(operation.key),
                expected: "credentials for \(wanted) (\(operation.name) requires them)",
                actual: request.headers["Authorization"] == nil ? "no Authorization header" : "an Authorization of another scheme"))
    }

    private func schemeNode(_ name: String) -> DocumentNode? {
        document.member(document.root, "components").flatMap { document.member($0, "securitySchemes") }.flatMap {
            document.member($0, name)
        }.map(document.resolved)
    }

    private func checkSentBody(
        _ request: HTTPRequest, operation: OpenAPIOperation, at location: ScenarioLocation, into verdict: inout ExchangeVerdict
    ) {
        let body = request.body ?? Data()
        guard let requestBody = operation.requestBody else {
            if !body.isEmpty {
                verdict.findings.append(
                    ContractFinding(
                        .requestBodyNotDocumented, at: location, source: document.place(operation.key),
                        expected: "no request body (\(operation.name) documents none)", actual: "a body of \(body.count) bytes"))
            }
            return
        }
        guard !body.isEmpty else {
            if document.member(requestBody, "required").flatMap(document.bool) == true {
                verdict.findings.append(
                    ContractFinding(
                        .requestBodyMissing, at: location, source: document.place(requestBody),
                        expected: "a request body (\(operation.name) requires one)", actual: "none"))
            }
            return
        }
        let content = document.member(requestBody, "content").map(document.resolved)
        let documented = content.map { document.members($0).map(\.key) } ?? []
        guard let declared = request.headers[HTTPFields.Name.contentType] else {
            verdict.findings.append(
                ContractFinding(
                    .mediaTypeNotDocumented, at: location, source: document.place(requestBody),
                    expected: "a Content-Type of \(documented.joined(separator: ", "))", actual: "a body without a Content-Type"))
            return
        }
        let mediaType = MediaTypes.essence(declared)
        guard let content, let media = MediaTypes.select(mediaType, in: content, document: document) else {
            verdict.findings.append(
                ContractFinding(
                    .mediaTypeNotDocumented, at: location, source: document.place(requestBody),
                    expected: "a request body of \(documented.joined(separator: ", "))", actual: mediaType))
            return
        }
        guard let schema = document.member(media, "schema") else { return }
        let text = String(decoding: body, as: UTF8.self)
        guard let value = MediaTypes.value(ofText: text, mediaType: mediaType, schema: schema, document: document) else { return }
        var validator = OpenAPISchemaValidator(document: document, patterns: patterns)
        validator.validate(value, against: schema, at: nil)
        for finding in validator.findings {
            verdict.findings.append(
                ContractFinding(
                    .requestBodyRefused, at: location, source: finding.place, bodyPath: finding.path, expected: finding.expected,
                    actual: finding.actual))
        }
        verdict.record(validator)
    }
}

/// Which step sent a request of the run: the action started last before it (the actions of the
/// record are the steps' calls in the order the steps start them).
struct SentRequestSteps {
    private var calls: [ScenarioLocation] = []
    private let fallback: ScenarioLocation

    init(_ scenario: Scenario) {
        fallback = scenario.location
        for step in scenario.steps {
            switch step.kind {
            case .perform(let call, let parallel, _): calls += Array(repeating: call.location, count: max(1, parallel))
            case .group(let group, _): calls += group.map(\.location)
            case .start(let call, _): calls.append(call.location)
            default: continue
            }
        }
    }

    func location(of request: RunRecord.Request, in record: RunRecord) -> ScenarioLocation {
        guard let index = record.actions.indices.last(where: { record.actions[$0].began < request.order }), index < calls.count else {
            return fallback
        }
        return calls[index]
    }
}
