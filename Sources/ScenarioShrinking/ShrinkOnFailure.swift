import ScenarioEngine

/// Writes a shrunk copy of each failing scenario into the plan's `shrinkInto` folder
/// (`scenario run --shrink`, a test bundle's `.scenarios(shrink:)`), in the process that ran it,
/// under the plan's route and the schedule it failed under; the result says what came of it.
package struct ShrinkOnFailure: FailureFollowUp {
    /// How long shrinking one failure may take: the best found by then is written.
    package static let timeLimit: Duration = .seconds(60)

    /// Creates the follow-up.
    package init() {}

    package func followUp(failing scenario: Scenario, result: inout ScenarioResult, runner: ScenarioRunner) async {
        guard let folder = runner.plan.shrinkInto else { return }
        if result.differedOnRepeat {
            result.shrinkNote = "not shrunk: it does not fail the same way on every run"
            return
        }
        var settings = ShrinkSettings()
        settings.timeLimit = Self.timeLimit
        settings.schedule = result.scheduleTaken.map { JobSchedule($0) }
        let plan = RunPlan(
            route: runner.plan.route, revealSecrets: runner.plan.revealSecrets, invariantsOnly: runner.plan.invariantsOnly)
        let shrinker = ScenarioShrinker(driver: runner.driver, plan: plan, settings: settings)
        switch await shrinker.shrink(DiscoveredScenario(path: scenario.file, id: scenario.id), into: folder) {
        case .written(let report):
            result.shrunkCopy = report.output
            result.shrinkNote = report.summary
        case .passes(let why), .refused(let why):
            result.shrinkNote = "not shrunk: " + why
        case .unloadable(let failure):
            result.shrinkNote = "not shrunk: " + failure.description
        }
    }
}
