import ScenarioEngine
import ScenarioTraces

/// What a command runs with: the environment `main.swift` read, where output goes, and the
/// driver. Commands read the environment only through this.
struct CLIContext: Sendable {
    /// The process environment.
    var environment: [String: String]
    /// Whether standard output is a terminal.
    var stdoutIsTerminal: Bool
    /// Where output goes.
    var console: Console
    /// The driver scenarios run against.
    var driver: any ScenarioDriver
    /// This program, started again as a worker process when scenarios run in parallel.
    var executablePath: String?

    /// Colours only on a terminal, and never when `NO_COLOR` is set (https://no-color.org).
    var usesColors: Bool { stdoutIsTerminal && environment["NO_COLOR"] == nil }

    /// Whether to print GitHub Actions annotations.
    var isGitHubActions: Bool { environment["GITHUB_ACTIONS"] == "true" }

    /// Finds and loads the scenarios under `paths`; a missing path is a usage-level file error.
    func loadScenarios(_ paths: [String]) throws(CLIError) -> [SuiteRunner.Entry] {
        do {
            return try SuiteRunner(driver: driver).load(paths)
        } catch {
            throw .badPath(String(describing: error))
        }
    }
}
