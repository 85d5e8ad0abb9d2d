import ScenarioEngine

/// The flags `run` and `shrink` share, read as every way of running reads them
/// (``RunPlan/Read``): only the error is the command line's.
enum RunFlags {
    /// `--route`: direct (the default) or urlSession.
    static func route(_ arguments: ParsedArguments, command: String) throws(CLIError) -> RunPlan.Route {
        try read(arguments, "--route", command: command, RunPlan.Read.route) ?? .direct
    }

    /// A whole number of at least 1, if the option was given.
    static func count(_ arguments: ParsedArguments, _ option: String, command: String) throws(CLIError) -> Int? {
        try read(arguments, option, command: command, RunPlan.Read.count)
    }

    /// `--replay-schedule`: `SEED:INDEX` as a failure printed it, or the departures a shrink printed.
    static func schedule(_ arguments: ParsedArguments, command: String) throws(CLIError) -> JobSchedule? {
        try read(arguments, "--replay-schedule", command: command, RunPlan.Read.schedule)
    }

    private static func read<Value>(
        _ arguments: ParsedArguments, _ option: String, command: String, _ reader: (String) -> Result<Value, RunPlan.Reason>
    ) throws(CLIError) -> Value? {
        guard let text = arguments.value(option) else { return nil }
        switch reader(text) {
        case .success(let value): return value
        case .failure(let reason): throw .invalidValue(option: option, value: text, command: command, reason: reason.text)
        }
    }
}
