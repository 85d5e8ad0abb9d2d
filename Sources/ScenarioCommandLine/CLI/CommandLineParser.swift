import ScenarioEngine

/// Splits a command's arguments into options and positionals: `--name value`, `--name=value`,
/// `-x value`, flags, and `--` to end options. Unknown options get a "did you mean".
enum CommandLineParser {
    /// Parses `arguments` (without the command name) for `command`, which takes `options`.
    static func parse(_ arguments: [String], options: [OptionSpec], command: String) throws(CLIError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                parsed.positionals += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                parsed.positionals.append(argument)
                continue
            }
            let (name, inline) = split(argument)
            guard let spec = options.first(where: { $0.long == name || $0.short == name }) else {
                throw .unknownOption(name, command: command, suggestion: suggestion(for: name, in: options))
            }
            guard spec.takesValue else {
                if inline != nil { throw .unexpectedValue(option: spec.long, command: command) }
                parsed.flags.insert(spec.long)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if index < arguments.count, !isOption(arguments[index], options) {
                value = arguments[index]
                index += 1
            } else {
                throw .missingValue(option: spec.long, command: command, placeholder: spec.placeholder ?? "VALUE")
            }
            if !spec.repeatable, parsed.values[spec.long] != nil {
                throw .duplicateOption(spec.long, command: command)
            }
            parsed.values[spec.long, default: []].append(value)
        }
        return parsed
    }

    /// Whether `-h` or `--help` appears before any `--`.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "--help" || argument == "-h" { return true }
        }
        return false
    }

    /// The closest known option name to a mistyped one.
    static func suggestion(for name: String, in options: [OptionSpec]) -> String? {
        if name.hasPrefix("--") {
            return Suggestion.closest(to: name, in: options.map(\.long))
        }
        // `-filter` for `--filter` is a common slip; compare with the dashes evened out.
        let bare = String(name.drop { $0 == "-" })
        guard bare.count > 1 else { return nil }
        let long = "--" + bare
        if options.contains(where: { $0.long == long }) { return long }
        return Suggestion.closest(to: long, in: options.map(\.long))
    }

    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// A following argument is taken as a value unless it is one of the command's own options,
    /// so `--junit --quiet` reports the missing path instead of writing a file named `--quiet`.
    private static func isOption(_ argument: String, _ options: [OptionSpec]) -> Bool {
        let name = split(argument).name
        return options.contains { $0.long == name || $0.short == name }
    }
}
