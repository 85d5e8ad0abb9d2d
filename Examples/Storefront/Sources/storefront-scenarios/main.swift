// The shop team's `scenario` command, on the release that has the field bug: what the team runs
// to import and shrink a capture its users sent (`storefront-scenarios import bug.har ...`).
import ScenarioCommandLine
import StorefrontDriver

await ScenarioCommandLine.main(driver: StorefrontDriver(build: .buggy))
