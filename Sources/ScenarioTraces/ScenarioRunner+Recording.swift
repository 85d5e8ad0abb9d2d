import ScenarioEngine

extension ScenarioRunner {
    /// Runs the scenario once and returns its result with what the scripted backend served, as
    /// HAR 1.2 (not redacted).
    @available(*, deprecated, message: "use `scenario export`, or URLSessionRecorder in the app")
    public func runRecording(_ scenario: Scenario) async -> (result: ScenarioResult, trace: HARLog) {
        let (result, record) = await ScenarioRunner(driver: driver, plan: RunPlan(route: plan.route, revealSecrets: plan.revealSecrets))
            .runReporting(scenario)
        return (result, record.har())
    }
}
