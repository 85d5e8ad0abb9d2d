import SampleAppDriver
import ScenarioCommandLine

await ScenarioCommandLine.main(driver: SampleAppDriver())
