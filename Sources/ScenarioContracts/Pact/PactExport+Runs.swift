import ScenarioEngine

/// The export of loaded scenarios, each run once so its requests are what the app sends.
extension PactExport {
    /// Runs each of `scenarios` (with its parsed file) under `driver` and adds its exchanges;
    /// with a `verifier`, leaves out the answers it refuses. Returns whether anything was left out
    /// for a reason a user must act on: a scenario that failed, or an answer the document refuses.
    package mutating func addRunning(
        _ scenarios: [(scenario: Scenario, root: JSONNode)], driver: any ScenarioDriver, verifier: OpenAPIVerifier? = nil,
        keepSecrets: Bool = false
    ) async -> Bool {
        var incomplete = false
        let runner = ScenarioRunner(driver: driver)
        for (scenario, root) in scenarios {
            let (result, record) = await runner.runReporting(scenario)
            let failure: String? = result.status == .passed || result.status == .skipped ? nil : result.status.rawValue
            let refused = verifier.map { Self.refusals(of: scenario, root: root, by: $0, driver: driver, keepSecrets: keepSecrets) } ?? [:]
            incomplete = incomplete || failure != nil || !refused.isEmpty
            add(scenario, root: root, run: Run(record: record, failure: failure), driver: driver, refused: refused)
        }
        return incomplete
    }
}
