/// A `scenario` subcommand: its help, its options, how it reads its arguments and what it does.
protocol Command: Sendable {
    /// The name typed after `scenario`.
    static var name: String { get }
    /// One line for the command list.
    static var abstract: String { get }
    /// The arguments after the name, for the usage line: `[paths...] [options]`.
    static var arguments: String { get }
    /// More explanation for `--help`, if any.
    static var discussion: String { get }
    /// Its options (`--help` is added for all).
    static var options: [OptionSpec] { get }

    /// Reads the parsed arguments.
    init(_ arguments: ParsedArguments) throws(CLIError)

    /// Does the work and says how it went.
    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode
}

extension Command {
    /// Options including `--help`.
    static var allOptions: [OptionSpec] { options + [.help] }

    /// `scenario run`.
    static var qualifiedName: String { "\(ScenarioCLI.programName) \(name)" }

    /// No positional arguments allowed.
    static func expectNoArguments(_ arguments: ParsedArguments) throws(CLIError) {
        if let first = arguments.positionals.first {
            throw .unexpectedArgument(first, command: name)
        }
    }
}
