import ScenarioEngine
import ScenarioTraces

/// `scenario export`: runs one scenario and writes everything the stack sent and received as
/// HAR 1.2, so `import` and `export` round-trip.
struct ExportCommand: Command {
    static let name = "export"
    static let abstract = "Run one scenario and write its exchanges as a HAR trace"
    static let arguments = "SCENARIO.json -o FILE.har [options]"
    static let discussion = """
        Times are the run's virtual times, starting at the scenario's clock. Secrets are redacted
        as 'scenario redact' does unless --keep-secrets. The trace is written even when the
        scenario fails (that is often when it is wanted); the exit status says how the run went.
        """
    static let options: [OptionSpec] = [
        .value("--output", short: "-o", "FILE.har", "Where to write the trace (required)"),
        .flag("--keep-secrets", "Do not redact secrets"),
        UnreadBodies.option,
    ]

    var input: String
    var output: String
    var keepSecrets: Bool
    var dropUnread: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        guard let input = arguments.positionals.first else { throw .missingArgument("a scenario file", command: Self.name) }
        if arguments.positionals.count > 1 { throw .unexpectedArgument(arguments.positionals[1], command: Self.name) }
        guard let output = arguments.value("--output") else { throw .missingArgument("-o FILE.har", command: Self.name) }
        self.input = input
        self.output = output
        keepSecrets = arguments.has("--keep-secrets")
        dropUnread = arguments.has(UnreadBodies.flag)
        if dropUnread, keepSecrets { throw .conflictingOptions(UnreadBodies.flag, "--keep-secrets", command: Self.name) }
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        let entries = try context.loadScenarios([input])
        guard entries.count == 1, let entry = entries.first else {
            throw .badPath("'\(Self.qualifiedName)' takes one scenario file; \(input) holds \(entries.count)")
        }
        let scenario: Scenario
        switch entry.loaded {
        case .failure(let failure):
            context.console.out(failure.description + "\n")
            return .fileProblem
        case .success(let loaded):
            scenario = loaded
        }
        let (result, record) = await ScenarioRunner(driver: context.driver).runReporting(scenario)
        var log = record.har()
        var note = ""
        if !keepSecrets {
            var redactor = TraceRedactor.exporting(scenario, driver: context.driver)
            redactor.dropsUnreadBodies = dropUnread
            note = UnreadBodies.note(redactor.redact(&log))
        }
        // A trace of no entries is one 'scenario import' refuses: write nothing rather than it.
        guard !log.entries.isEmpty else {
            context.console.err(
                "error: the run of \(input) sent no requests (the scenario \(result.status.rawValue)); nothing to export, \(output) not written\n"
            )
            return .fileProblem
        }
        try TraceFile.write(log, to: output)
        context.console.out("Wrote \(output): \(log.entries.count) entries; the scenario \(result.status.rawValue)\(note)\n")
        return result.status == .passed ? .success : .failure
    }
}
