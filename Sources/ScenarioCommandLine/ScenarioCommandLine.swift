import Foundation
import ScenarioEngine

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The whole `scenario` command line for any driver: `run`, `lint`, `list`, `actions`, `merge`,
/// `import`, `redact`, `export`, with the same flags, reports and exit codes whatever the stack.
///
/// A team's runner is a `main.swift` of three lines:
///
/// ```swift
/// import ScenarioCommandLine
/// import MyAppDriver
/// await ScenarioCommandLine.main(driver: MyAppDriver())
/// ```
public enum ScenarioCommandLine {
    /// Runs the command the process was started with, then exits with its status. This is the
    /// only place that reads the process's arguments and environment.
    public static func main(driver: any ScenarioDriver) async -> Never {
        // The same transcript on every run, also where the stack walks a Dictionary or Set.
        DeterministicHashing.startAgainIfOff()
        if let started = CommandLine.arguments.first, !started.isEmpty {
            ScenarioCLI.programName = URL(fileURLWithPath: started).lastPathComponent
        }
        let context = CLIContext(
            environment: ProcessInfo.processInfo.environment,
            stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
            console: .standard,
            driver: driver,
            executablePath: Bundle.main.executablePath
        )
        let status = await run(Array(CommandLine.arguments.dropFirst()), context: context)
        exit(status)
    }

    /// Runs one command line (without the program name) and returns its exit status.
    static func run(_ arguments: [String], context: CLIContext) async -> Int32 {
        await ScenarioCLI(context: context).main(arguments).rawValue
    }
}
