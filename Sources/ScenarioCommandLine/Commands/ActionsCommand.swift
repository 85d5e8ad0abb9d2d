import ScenarioEngine

/// `scenario actions`: what the driver offers steps, and the keys `given` takes.
struct ActionsCommand: Command {
    static let name = "actions"
    static let abstract = "Show the driver's actions, their arguments and the given keys"
    static let arguments = "[options]"
    static let discussion = "Steps name an action in \"do\" or \"start\" and pass its arguments in \"with\"."
    static let options: [OptionSpec] = []

    init(_ arguments: ParsedArguments) throws(CLIError) {
        try Self.expectNoArguments(arguments)
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        let driver = context.driver
        var text = "Actions of the \(driver.name) driver:\n"
        if driver.actions.isEmpty {
            text += "  (none yet)\n"
        }
        for action in driver.actions {
            text += "\n  \(action.name) — \(action.summary)\n"
            if action.arguments.isEmpty {
                text += "    (no arguments)\n"
            } else {
                let rows = action.arguments.map(Self.row)
                text += TextTable(rows: rows).text.split(separator: "\n").map { "    " + $0 + "\n" }.joined()
            }
        }
        text += "\nKeys of \"given\":\n"
        var given = [["clock.start", "string", "optional", "ISO-8601 instant virtual time starts at (default 2026-01-01T00:00:00Z)"]]
        given += driver.givenKeys.map(Self.row)
        text += TextTable(rows: given).text.split(separator: "\n").map { "  " + $0 + "\n" }.joined()
        context.console.out(text)
        return .success
    }

    private static func row(_ argument: ArgumentSpec) -> [String] {
        var summary = argument.summary
        if let choices = argument.choices, !choices.isEmpty {
            summary += " (one of: \(choices.joined(separator: ", ")))"
        }
        return [argument.name, argument.type.rawValue, argument.required ? "required" : "optional", summary]
    }
}
