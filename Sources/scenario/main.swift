import Foundation
import SessionKitDriver

// The only place that reads the process's arguments and environment.
let context = CLIContext(
    environment: ProcessInfo.processInfo.environment,
    stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
    console: .standard,
    driver: SessionKitDriver(),
    executablePath: Bundle.main.executablePath
)
let status = await ScenarioCLI(context: context).main(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
