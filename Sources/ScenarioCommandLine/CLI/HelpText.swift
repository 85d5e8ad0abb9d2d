import Foundation

/// The `--help` texts, built from the commands' own descriptions so they cannot drift.
enum HelpText {
    /// The top-level help.
    static func topLevel(commands: [any Command.Type], version: String) -> String {
        let program = ScenarioCLI.programName
        var text = """
            OVERVIEW: Run scenario files against the session stack on a virtual clock (version \(version)).

            USAGE: \(program) <command> [options]
                   \(program) <command> --help

            COMMANDS:

            """
        let width = commands.map { ($0.name + " " + $0.arguments).count }.max() ?? 0
        for command in commands {
            text += "  " + pad(command.name + " " + command.arguments, width) + "  " + command.abstract + "\n"
        }
        text += "  " + pad("help [command]", width) + "  Show help for a command\n"
        text += """

            OPTIONS:
              -h, --help     Show this help
              --version      Show the version


            """
        text += exitCodes + "\n" + environment
        return text
    }

    /// A command's help.
    static func command(_ command: any Command.Type) -> String {
        var text = "OVERVIEW: \(command.abstract)\n\n"
        text += "USAGE: \(command.qualifiedName) \(command.arguments)\n"
        if !command.discussion.isEmpty {
            // Discussions name other commands as 'scenario NAME': this program's own name.
            text += "\n" + command.discussion.replacingOccurrences(of: "'scenario ", with: "'\(ScenarioCLI.programName) ") + "\n"
        }
        let options = command.allOptions
        text += "\nOPTIONS:\n"
        let width = options.map(\.synopsis.count).max() ?? 0
        for option in options {
            let more = option.repeatable ? " (repeatable)" : ""
            text += "  " + pad(option.synopsis, width) + "  " + option.help + more + "\n"
        }
        text += "\n" + CommandExitCodes.text(for: command.name)
        return text
    }

    /// The exit status table.
    static var exitCodes: String {
        "EXIT CODES:\n" + ExitCode.allCases.map { "  " + pad(String($0.rawValue), 3) + " " + $0.meaning + "\n" }.joined()
    }

    /// The environment variables the tool reads.
    static let environment = """
        ENVIRONMENT:
          NO_COLOR        when set, no colours (colours are used only when stdout is a terminal)
          GITHUB_ACTIONS  when "true", failures are also printed as ::error annotations

        """

    /// Pads text with spaces on the right to `width` characters.
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
