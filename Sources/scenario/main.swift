import ScenarioCommandLine
import SessionKitDriver

await ScenarioCommandLine.main(driver: SessionKitDriver())
