import ScenarioContracts
import ScenarioEngine
import ScenarioTraces

/// `scenario verify`: checks every scripted exchange against what the backend says, an OpenAPI
/// document or captured traffic, and reports each finding at its scenario line and its document line.
struct VerifyCommand: Command {
    static let name = "verify"
    static let abstract = "Check scripted answers against an OpenAPI document or captured traffic"
    static let arguments = "[paths...] (--openapi DOC | --trace FILE.har...) [options]"
    static let discussion = """
        Paths are scenario files or folders searched recursively (default: Scenarios).
        --openapi: each exchange's request must be an operation of the document (JSON or YAML,
        OpenAPI 3.0 or 3.1, relative $refs to other files followed) and its answer documented:
        the status, required headers, and the body against the response schema. Each scenario
        is also run once, and every request the app sent is checked against the operation that
        answers it (its parameters, credentials and body, the body's required members too), at the
        step that sent it; --answers-only leaves the runs out.
        --trace: each exchange is compared with the captured answers to the same method and route:
        a status never seen, members and types the captures never have, a header every capture
        sends, Retry-After in another form.
        Each finding is printed at the scenario's file:line:column with the document's. An
        exchange marked "verify": {"skip": "why"} is counted as skipped. One that cannot be
        checked (a keyword this verifier does not know, a route no capture answers) is never
        counted as passing: it exits 1 unless --allow-unchecked. Reports are masked.
        """
    static let options: [OptionSpec] = [
        .value("--openapi", "DOC", "The OpenAPI document (.json, .yaml or .yml)"),
        .value("--trace", "FILE.har", repeatable: true, "A capture of the real backend (HAR)"),
        .value("--junit", "PATH", "Write a JUnit report: one test case per scenario"),
        .value("--json", "PATH", "Write a JSON report of every exchange, finding and place"),
        .flag("--answers-only", "With --openapi: check the scripted exchanges only, without running the scenarios"),
        .flag("--allow-unchecked", "Exit 0 when exchanges could not be checked but nothing was found"),
        .flag("--allow-empty", "Exit 0 when no scenario file is found or nothing could be checked"),
        .flag("--quiet", short: "-q", "Print only the summary"),
        .flag("--verbose", short: "-v", "Also list skipped exchanges and their reasons"),
        .flag("--show-secrets", "Show secrets in findings instead of masking them"),
    ]

    var paths: [String]
    var openAPI: String?
    var traces: [String]
    var junitPath: String?
    var jsonPath: String?
    var allowUnchecked: Bool
    var answersOnly: Bool
    var allowEmpty: Bool
    var quiet: Bool
    var verbose: Bool
    var showSecrets: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        paths = arguments.scenarioPaths
        openAPI = arguments.value("--openapi")
        traces = arguments.all("--trace")
        if openAPI != nil, !traces.isEmpty { throw .conflictingOptions("--openapi", "--trace", command: Self.name) }
        if openAPI == nil, traces.isEmpty { throw .missingArgument("--openapi DOC or --trace FILE.har", command: Self.name) }
        if arguments.has("--quiet"), arguments.has("--verbose") { throw .conflictingOptions("--quiet", "--verbose", command: Self.name) }
        junitPath = arguments.value("--junit")
        jsonPath = arguments.value("--json")
        allowUnchecked = arguments.has("--allow-unchecked")
        answersOnly = arguments.has("--answers-only")
        if answersOnly, openAPI == nil { throw .conflictingOptions("--answers-only", "--trace", command: Self.name) }
        allowEmpty = arguments.has("--allow-empty")
        quiet = arguments.has("--quiet")
        verbose = arguments.has("--verbose")
        showSecrets = arguments.has("--show-secrets")
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        // What to check against is read first: a broken document is reported before any scenario.
        let against: String
        var verdict: (Scenario, JSONNode) -> ScenarioVerdict
        var openAPIVerifier: OpenAPIVerifier?
        if let openAPI {
            let document: OpenAPIDocument
            do {
                document = try OpenAPIDocument.load(path: openAPI)
            } catch {
                throw .invalidDocument(TerminalSafe.escape(error.description))
            }
            let verifier = OpenAPIVerifier(document: document)
            openAPIVerifier = verifier
            against = openAPI
            verdict = verifier.verify
        } else {
            var logs: [(file: String, log: HARLog)] = []
            for trace in traces { logs.append((trace, try TraceFile.read(trace))) }
            let verifier = TraceVerifier(logs: logs)
            against = traces.joined(separator: ", ")
            verdict = verifier.verify
        }
        let entries = try context.loadScenarios(paths)
        if entries.isEmpty, !allowEmpty {
            throw .nothingSelected("no scenario files found in \(paths.joined(separator: ", "))")
        }
        // What the app sends, from one run of each scenario (as `scenario export` takes it).
        var records: [String: RunRecord] = [:]
        var checked = 0
        if let verifier = openAPIVerifier, !answersOnly {
            let runner = ScenarioRunner(driver: context.driver)
            for entry in entries {
                guard case .success(let scenario) = entry.loaded else { continue }
                records[scenario.file] = await runner.runReporting(scenario).record
            }
            let answers = verdict
            verdict = { scenario, root in
                var found = answers(scenario, root)
                if let record = records[scenario.file] { checked += verifier.checkSent(record, of: scenario, into: &found) }
                return found
            }
        }
        var run = ContractVerification.run(
            entries, against: against, driver: context.driver, showSecrets: showSecrets, sent: { records[$0.file]?.requests ?? [] },
            verdict: verdict)
        if openAPIVerifier != nil, !answersOnly { run.requestsChecked = checked }
        context.console.out(quiet ? VerificationReport.summary(run) + "\n" : VerificationReport.console(run, verbose: verbose))
        if let junitPath { try ReportFile.write(VerificationReport.junit(run), to: junitPath) }
        if let jsonPath { try ReportFile.write(VerificationReport.json(run), to: jsonPath) }
        return try exitCode(run)
    }

    private func exitCode(_ run: VerificationRun) throws(CLIError) -> ExitCode {
        if !run.loadFailures.isEmpty { return .fileProblem }
        let counts = run.exchangeCounts
        if (counts[.findings] ?? 0) > 0 { return .failure }
        if (counts[.conforms] ?? 0) + (counts[.couldNotCheck] ?? 0) == 0, !allowEmpty {
            throw .nothingSelected("no exchange was checked (there were none, or every one was left out)")
        }
        if (counts[.couldNotCheck] ?? 0) > 0, !allowUnchecked { return .failure }
        return .success
    }
}
