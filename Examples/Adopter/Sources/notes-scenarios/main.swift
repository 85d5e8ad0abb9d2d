import NotesDriver
import ScenarioCommandLine

await ScenarioCommandLine.main(driver: NotesDriver())
