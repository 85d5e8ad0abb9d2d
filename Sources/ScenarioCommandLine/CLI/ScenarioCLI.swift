import ScenarioEngine
import ScenarioShrinking

/// The `scenario` command line: picks the command, handles `--help` and `--version`, runs the
/// command, and turns any error into its message and exit status.
struct ScenarioCLI: Sendable {
    /// The version `--version` prints.
    static let version = "0.1.0"

    /// Every command, in help order.
    static let commands: [any Command.Type] = [
        RunCommand.self, LintCommand.self, ListCommand.self, ActionsCommand.self, MergeCommand.self, ImportCommand.self,
        RedactCommand.self, ExportCommand.self, ShrinkCommand.self, VerifyCommand.self, ExportPactCommand.self, InitCommand.self,
    ]

    /// What the command runs with.
    let context: CLIContext

    /// The name the program was started by, for usage lines and hints: a team's runner has a
    /// name of its own. Set once, by ``ScenarioCommandLine/main(driver:)``, before anything runs.
    static var programName: String {
        get { ScenarioProcess.commandName }
        set { ScenarioProcess.commandName = newValue }
    }

    /// Runs the command line (without the program name) and returns the exit status.
    func main(_ arguments: [String]) async -> ExitCode {
        do {
            return try await dispatch(arguments)
        } catch {
            context.console.err(error.report)
            return error.exitCode
        }
    }

    private func dispatch(_ arguments: [String]) async throws(CLIError) -> ExitCode {
        guard let first = arguments.first else {
            context.console.err(HelpText.topLevel(commands: Self.commands, version: Self.version))
            throw .missingCommand
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help":
            context.console.out(HelpText.topLevel(commands: Self.commands, version: Self.version))
            return .success
        case "--version":
            context.console.out("\(Self.programName) \(Self.version)\n")
            return .success
        case "help":
            return try help(rest)
        #if os(macOS) || os(Linux) || os(Windows)
            case RunCommand.workerName:
                // A worker of `run --jobs N`: scenarios and the plan to run them under on standard input.
                await WorkerPool.serve(driver: context.driver, followUp: ShrinkOnFailure())
                return .success
        #endif
        default:
            break
        }
        guard let command = Self.commands.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") {
                let topLevel = ["--help", "-h", "--version"]
                throw .unknownOption(first, command: Self.programName, suggestion: Suggestion.closest(to: first, in: topLevel))
            }
            throw .unknownCommand(first, suggestion: Suggestion.closest(to: first, in: Self.commands.map { $0.name } + ["help"]))
        }
        if CommandLineParser.asksForHelp(rest) {
            context.console.out(HelpText.command(command))
            return .success
        }
        let parsed = try CommandLineParser.parse(rest, options: command.allOptions, command: command.name)
        let instance: any Command = try command.init(parsed)
        return try await instance.execute(in: context)
    }

    private func help(_ arguments: [String]) throws(CLIError) -> ExitCode {
        guard let name = arguments.first else {
            context.console.out(HelpText.topLevel(commands: Self.commands, version: Self.version))
            return .success
        }
        guard let command = Self.commands.first(where: { $0.name == name }) else {
            throw .unknownCommand(name, suggestion: Suggestion.closest(to: name, in: Self.commands.map { $0.name }))
        }
        if arguments.count > 1 { throw .unexpectedArgument(arguments[1], command: "help") }
        context.console.out(HelpText.command(command))
        return .success
    }
}
