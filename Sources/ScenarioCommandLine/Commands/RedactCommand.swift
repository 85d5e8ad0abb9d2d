import ScenarioEngine
import ScenarioTraces

/// `scenario redact`: replaces the secrets of a HAR trace with stable placeholders, for sharing.
struct RedactCommand: Command {
    static let name = "redact"
    static let abstract = "Replace a HAR trace's secrets with stable placeholders, for sharing"
    static let arguments = "IN.har -o OUT.har"
    static let discussion = """
        Credentials in Authorization, Cookie, Set-Cookie and API-key headers, JWT-shaped values
        anywhere, and token, password, secret and code fields in JSON bodies, query strings and
        form bodies become placeholders such as redacted-token-1. The same secret gets the same
        placeholder everywhere, so a scenario imported from the redacted trace still runs.
        Prints how many secrets of each kind were replaced, never their values. Inside bodies that
        are not text (MessagePack, protobuf, gRPC) a secret is masked in place by a placeholder of
        its own length, so the body keeps its framing; a body whose structure could not be read is
        kept and said so, or left out with --drop-unreadable-bodies.
        """
    static let options: [OptionSpec] = [
        .value("--output", short: "-o", "OUT.har", "Where to write the redacted trace (required)"), UnreadBodies.option,
    ]

    /// The trace to read.
    var input: String
    /// Where to write.
    var output: String
    /// Whether bodies that could not be read are left out.
    var dropUnread: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        guard let input = arguments.positionals.first else { throw .missingArgument("a trace to redact (IN.har)", command: Self.name) }
        if arguments.positionals.count > 1 { throw .unexpectedArgument(arguments.positionals[1], command: Self.name) }
        guard let output = arguments.value("--output") else { throw .missingArgument("-o OUT.har", command: Self.name) }
        self.input = input
        self.output = output
        dropUnread = arguments.has(UnreadBodies.flag)
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        var log = try TraceFile.read(input)
        var redactor = TraceRedactor(extraKeys: context.driver.secretKeys)
        redactor.dropsUnreadBodies = dropUnread
        let report = redactor.redact(&log)
        try TraceFile.write(log, to: output)
        context.console.out("Wrote \(output) (\(log.entries.count) entries); \(report)\(UnreadBodies.note(report))\n")
        return .success
    }
}
