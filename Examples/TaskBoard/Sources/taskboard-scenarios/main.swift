// The board team's `scenario` command, on the release that has the field bug: what the team
// runs to import and shrink a capture its users sent (`taskboard-scenarios import bug.har ...`).
import ScenarioCommandLine
import TaskBoardDriver

await ScenarioCommandLine.main(driver: TaskBoardDriver(build: .buggy))
