import FieldSessionDriver
import ScenarioCommandLine

await ScenarioCommandLine.main(driver: FieldSessionDriver())
