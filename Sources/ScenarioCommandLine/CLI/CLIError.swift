/// Everything that stops a command early. The one place that maps each error to the message
/// printed on standard error and to the exit status.
enum CLIError: Error, Sendable, Equatable {
    /// No command was given.
    case missingCommand
    /// The first argument is not a command.
    case unknownCommand(String, suggestion: String?)
    /// An option the command does not have.
    case unknownOption(String, command: String, suggestion: String?)
    /// An option that needs a value got none.
    case missingValue(option: String, command: String, placeholder: String)
    /// A flag was given a value with `=`.
    case unexpectedValue(option: String, command: String)
    /// A value that does not fit the option.
    case invalidValue(option: String, value: String, command: String, reason: String)
    /// An option that may be given once was given again.
    case duplicateOption(String, command: String)
    /// Two options that exclude each other.
    case conflictingOptions(String, String, command: String)
    /// A positional argument the command does not take.
    case unexpectedArgument(String, command: String)
    /// A positional argument the command needs.
    case missingArgument(String, command: String)
    /// A path given on the command line that does not exist or cannot be searched.
    case badPath(String)
    /// A file that could not be read.
    case cannotRead(path: String, reason: String)
    /// A file that could not be written.
    case cannotWrite(path: String, reason: String)
    /// A JUnit report that could not be merged.
    case invalidReport(String)
    /// A trace (HAR) that could not be read or imported: the full message, `error:` included
    /// (`t.har:1:19: error: ...`), printed as it is.
    case invalidTrace(String)
    /// An API document that could not be read or is no OpenAPI document: the full located
    /// message, `error:` included, printed as it is.
    case invalidDocument(String)
    /// Nothing to check or run, and `--allow-empty` was not given: what was empty.
    case nothingSelected(String)
    /// A scenario that cannot be shrunk (it does not load, its failure does not repeat, ...): why.
    case cannotShrink(String)

    /// The exit status.
    var exitCode: ExitCode {
        switch self {
        case .missingCommand, .unknownCommand, .unknownOption, .missingValue, .unexpectedValue, .invalidValue,
            .duplicateOption, .conflictingOptions, .unexpectedArgument, .missingArgument:
            .usage
        case .badPath, .cannotRead, .cannotWrite, .invalidReport, .invalidTrace, .invalidDocument, .nothingSelected, .cannotShrink:
            .fileProblem
        }
    }

    /// The command whose help fixes a usage error (`nil`: the top level, or not a usage error).
    var helpCommand: String? {
        switch self {
        case .unknownOption(_, let command, _), .missingValue(_, let command, _), .unexpectedValue(_, let command),
            .invalidValue(_, _, let command, _), .duplicateOption(_, let command), .conflictingOptions(_, _, let command),
            .unexpectedArgument(_, let command), .missingArgument(_, let command):
            command
        default:
            nil
        }
    }

    /// What went wrong and what to do, as printed after `error: `.
    var message: String {
        switch self {
        case .missingCommand:
            "no command given"
        case .unknownCommand(let name, let suggestion):
            "unknown command '\(name)'" + didYouMean(suggestion)
        case .unknownOption(let name, let command, let suggestion):
            "unknown option '\(name)' for '\(qualified(command))'" + didYouMean(suggestion)
        case .missingValue(let option, _, let placeholder):
            "option '\(option)' needs a value: \(option) \(placeholder)"
        case .unexpectedValue(let option, _):
            "option '\(option)' is a flag and takes no value"
        case .invalidValue(let option, let value, _, let reason):
            "invalid value '\(value)' for \(option): \(reason)"
        case .duplicateOption(let option, _):
            "option '\(option)' may be given only once"
        case .conflictingOptions(let first, let second, _):
            "options '\(first)' and '\(second)' cannot be used together"
        case .unexpectedArgument(let argument, let command):
            "'\(qualified(command))' takes no argument '\(argument)'"
        case .missingArgument(let argument, let command):
            "'\(qualified(command))' needs \(argument)"
        case .badPath(let description), .cannotShrink(let description):
            description
        case .nothingSelected(let what):
            "\(what); a run that checks nothing is not a pass (pass --allow-empty if that is on purpose)"
        case .cannotRead(let path, let reason):
            "cannot read \(path): \(reason)"
        case .cannotWrite(let path, let reason):
            "cannot write \(path): \(reason)"
        case .invalidReport(let description):
            "cannot merge \(description)"
        case .invalidTrace(let description), .invalidDocument(let description):
            description
        }
    }

    /// The full text for standard error: the message, and for usage errors where to read more.
    var report: String {
        // A trace's message is already located and says "error:" itself: once is enough.
        if case .invalidTrace(let message) = self { return message + "\n" }
        if case .invalidDocument(let message) = self { return message + "\n" }
        var text = "error: \(message)\n"
        if exitCode == .usage {
            let program = ScenarioCLI.programName
            let command = helpCommand.map { "\(program) \($0) --help" } ?? "\(program) --help"
            text += "Run '\(command)' for usage.\n"
        }
        return text
    }

    private func qualified(_ command: String) -> String {
        command == ScenarioCLI.programName ? command : "\(ScenarioCLI.programName) \(command)"
    }

    private func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }
}
