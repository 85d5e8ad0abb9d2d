import NotesDriver
import ScenarioTesting
import Testing

@Test(arguments: ScenarioFile.all(in: "Scenarios"))
func scenario(_ file: ScenarioFile) async {
    await file.check(with: NotesDriver())
}
