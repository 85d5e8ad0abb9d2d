import NotesDriver
import ScenarioKit  // RunPlan
import ScenarioTesting
import Testing

// Each scenario under 20 schedules; the JUnit, JSON and HTML reports go to .build/scenario-reports.
@Test(.scenarios(schedules: 20, reports: ".build/scenario-reports"), arguments: ScenarioFile.all(in: "Scenarios"))
func scenario(_ file: ScenarioFile) async {
    await file.check(with: NotesDriver())
}

// The same scenarios with the stack's requests through URLSession's loading machinery.
@Test(arguments: ScenarioFile.all(in: "Scenarios"))
func scenarioOverURLSession(_ file: ScenarioFile) async {
    await file.check(with: NotesDriver(), plan: RunPlan(route: .urlSession))
}
