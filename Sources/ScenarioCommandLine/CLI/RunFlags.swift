import ScenarioEngine

/// The flags `run` and `shrink` share, read the same way.
enum RunFlags {
    /// `--route`: direct (the default) or urlSession.
    static func route(_ arguments: ParsedArguments, command: String) throws(CLIError) -> RunPlan.Route {
        guard let text = arguments.value("--route") else { return .direct }
        guard let parsed = RunPlan.Route(rawValue: text) else {
            let choices = RunPlan.Route.allCases.map(\.rawValue)
            var reason = "expected one of \(choices.joined(separator: ", "))"
            if let close = Suggestion.closest(to: text, in: choices) { reason += "; did you mean '\(close)'?" }
            throw .invalidValue(option: "--route", value: text, command: command, reason: reason)
        }
        return parsed
    }

    /// A whole number of at least 1, if the option was given.
    static func count(_ arguments: ParsedArguments, _ option: String, command: String) throws(CLIError) -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard let value = Int(text), value >= 1 else {
            throw .invalidValue(option: option, value: text, command: command, reason: "expected a whole number of at least 1")
        }
        return value
    }

    /// `--replay-schedule`: `SEED:INDEX` as a failure printed it, or the departures a shrink printed.
    static func schedule(_ arguments: ParsedArguments, command: String) throws(CLIError) -> JobSchedule? {
        guard let text = arguments.value("--replay-schedule") else { return nil }
        guard let schedule = JobSchedule(parsing: text) else {
            throw .invalidValue(
                option: "--replay-schedule", value: text, command: command,
                reason: "expected SEED:INDEX as a failure printed it, such as 7:42, or the schedule a shrink printed")
        }
        return schedule
    }
}
