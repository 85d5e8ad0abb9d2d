/// What whoever orchestrates runs (the command line, a test bundle) does with a failed result
/// before it is reported: writing a shrunk copy, for one. The engine runs scenarios and knows
/// none of the tools; the tools above it plug in here.
package protocol FailureFollowUp: Sendable {
    /// Acts on the failed `result` of `scenario`, run by `runner`, and may note what it did in it.
    func followUp(failing scenario: Scenario, result: inout ScenarioResult, runner: ScenarioRunner) async
}
