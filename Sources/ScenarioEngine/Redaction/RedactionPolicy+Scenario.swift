import Foundation
import HTTPCore

extension RedactionPolicy {
    /// The policy for a run: the built-in names, the scenario's `secrets` and the driver's
    /// `secretKeys`.
    package init(scenario: Scenario, driver: any ScenarioDriver) {
        self.init(extraKeys: scenario.secretKeys + driver.secretKeys)
    }

    /// Secrets a run met: those the scenario mentions (given, scripted exchanges, arguments,
    /// expected outcomes and state) and those the stack sent.
    package func secrets(of scenario: Scenario, requests: [RunRecord.Request]) -> [String] {
        findings(of: scenario, requests: requests).values
    }

    /// The secrets a scenario mentions, with what each was found as: what a run of it knows as
    /// secret before the stack sends anything (`scenario export` masks them in the trace too).
    package static func knownSecrets(of scenario: Scenario, driver: any ScenarioDriver) -> [Finding] {
        RedactionPolicy(scenario: scenario, driver: driver).findings(of: scenario, requests: []).ordered
    }

    private func findings(of scenario: Scenario, requests: [RunRecord.Request]) -> Findings {
        var found = Findings()
        collect(json: scenario.given, into: &found)
        for exchange in scenario.exchanges {
            for field in exchange.request.headers { collect(header: field.name, value: field.value, into: &found) }
            collect(query: exchange.request.query, into: &found)
            switch exchange.request.body {
            case .jsonSubset(let json)?: collect(json: json, into: &found)
            case .text(let text)?: collect(body: Data(text.utf8), contentType: exchange.request.headers["Content-Type"], into: &found)
            case nil: break
            }
            if case .exact(let path)? = exchange.request.path { collect(path: path, into: &found) }
            if case .response(let response) = exchange.reply {
                for field in response.headers { collect(header: field.name, value: field.value, into: &found) }
                collect(body: response.body, contentType: response.headers["Content-Type"], into: &found)
            }
        }
        for step in scenario.steps {
            for call in step.calls { collect(json: call.arguments, into: &found) }
            for outcome in Self.outcomes(of: step) {
                switch outcome {
                case .value(let value): collect(json: value, into: &found)
                // An error's `code` names what went wrong; anything else in it may be a secret.
                case .error(.object(let object)): collect(json: .object(JSONObject(object.filter { $0.key != "code" })), into: &found)
                default: break
                }
            }
            if case .check(let expectations) = step.kind { collect(expectations: expectations, into: &found) }
        }
        collect(expectations: scenario.expect, into: &found)
        // Requests repeat the same credentials: look at each distinct request once.
        var seen: Set<HTTPRequest> = []
        for logged in requests where seen.insert(logged.request).inserted {
            let request = logged.request
            for field in request.headers { collect(header: field.name, value: field.value, into: &found) }
            collect(query: request.query.map { ($0.name, $0.value ?? "") }, into: &found)
            collect(path: request.path, into: &found)
            if let body = request.body { collect(body: body, contentType: request.headers["Content-Type"], into: &found) }
        }
        return found
    }

    /// Values an expectation names that may be secret: expected state, credentials and bodies.
    private func collect(expectations: Expectations, into found: inout Findings) {
        if let state = expectations.state { collect(json: state, into: &found) }
        for pattern in expectations.requests?.log ?? [] {
            for (name, value) in pattern.headers { value.map { collect(header: name, value: $0, into: &found) } }
            if let json = pattern.json { collect(json: json, into: &found) }
        }
    }

    /// The outcomes a step expects of its actions.
    private static func outcomes(of step: Step) -> [Outcome] {
        switch step.kind {
        case .perform(_, _, let expect?), .await(_, let expect?): [expect]
        case .group(_, let expects): expects.compactMap { $0 }
        default: []
        }
    }
}
