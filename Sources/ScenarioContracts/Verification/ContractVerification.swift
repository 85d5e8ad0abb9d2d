import Foundation
import ScenarioEngine

/// Checks loaded scenarios' exchanges with a verifier (an API document, or captures) and masks
/// every verdict with the scenario's secrets, as every report is masked.
package enum ContractVerification {
    /// The verdicts on `entries` (scenarios loaded as `driver` reads them), each from `verdict`
    /// given the scenario and its parsed file.
    package static func run(
        _ entries: [SuiteRunner.Entry], against: String, driver: any ScenarioDriver, showSecrets: Bool,
        sent: (Scenario) -> [RunRecord.Request] = { _ in [] }, verdict: (Scenario, JSONNode) -> ScenarioVerdict
    ) -> VerificationRun {
        var run = VerificationRun(against: against)
        for entry in entries {
            let scenario: Scenario
            switch entry.loaded {
            case .failure(let failure):
                run.loadFailures.append(failure)
                continue
            case .success(let loaded):
                scenario = loaded
            }
            // The loader streams a file's exchanges; the places of their keys come from a parse of its own.
            let root: JSONNode
            do {
                root = try JSONTextParser(data: Data(try FileBytes.read(entry.path)), file: entry.path).parseDocument()
            } catch let issue as LoadIssue {
                run.loadFailures.append(LoadFailure(file: entry.path, issues: [issue]))
                continue
            } catch {
                let location = ScenarioLocation(file: entry.path, line: 1, column: 1, path: JSONPath.root)
                run.loadFailures.append(
                    LoadFailure(file: entry.path, issues: [LoadIssue(location: location, message: "cannot read the file: \(error)")]))
                continue
            }
            let policy = RedactionPolicy(scenario: scenario, driver: driver)
            // What the run sent is masked too: a finding about a request may quote it.
            let redactor = SecretRedactor(
                secrets: policy.secrets(of: scenario, requests: sent(scenario)), enabled: !showSecrets, policy: policy)
            run.scenarios.append(verdict(scenario, root).masked(by: redactor))
        }
        return run
    }
}

extension ScenarioVerdict {
    /// Every text that quotes the scenario or a body with its secrets masked.
    func masked(by redactor: SecretRedactor) -> ScenarioVerdict {
        var copy = self
        copy.exchanges = exchanges.map { exchange in
            var masked = exchange
            masked.route = redactor.redact(exchange.route)
            masked.skipReason = exchange.skipReason.map(redactor.redact)
            masked.findings = exchange.findings.map { finding in
                var masked = finding
                masked.expected = redactor.redact(finding.expected)
                masked.actual = redactor.redact(finding.actual)
                masked.bodyPath = finding.bodyPath.map(redactor.redact)
                masked.scenario.path = redactor.redact(finding.scenario.path)
                return masked
            }
            masked.unchecked = exchange.unchecked.map { UncheckedPart(redactor.redact($0.reason), source: $0.source) }
            return masked
        }
        return copy
    }
}
