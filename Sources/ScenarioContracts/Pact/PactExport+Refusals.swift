import ScenarioEngine

/// `export-pact --openapi DOC`: an answer the document refuses is no contract a provider that
/// follows the document can honour, so it is left out with the findings verify gives it.
extension PactExport {
    /// The exchanges of `scenario` (whose parsed file is `root`) the document refuses, each with
    /// its findings as one reason, masked as verify masks them unless `keepSecrets`.
    package static func refusals(
        of scenario: Scenario, root: JSONNode, by verifier: OpenAPIVerifier, driver: any ScenarioDriver, keepSecrets: Bool
    ) -> [String: String] {
        let policy = RedactionPolicy(scenario: scenario, driver: driver)
        let redactor = SecretRedactor(secrets: policy.secrets(of: scenario, requests: []), enabled: !keepSecrets, policy: policy)
        let verdict = verifier.verify(scenario, root: root).masked(by: redactor)
        var refused: [String: String] = [:]
        for exchange in verdict.exchanges where !exchange.findings.isEmpty {
            let findings = exchange.findings.map { finding in
                "\(finding.kind.rawValue) \(finding.bodyPath.map { $0 + " " } ?? "")expected \(finding.expected), got \(finding.actual)"
                    + (finding.source.map { " (\($0))" } ?? "")
            }
            refused[exchange.id] = "the API document refuses its answer: " + findings.joined(separator: "; ")
        }
        return refused
    }
}
