// The messenger team's `scenario` command, on the release that has the field bug: what the team
// runs to import and shrink a capture its users sent (`messenger-scenarios import bug.har ...`).
import MessengerDriver
import ScenarioCommandLine

await ScenarioCommandLine.main(driver: MessengerDriver(build: .buggy))
