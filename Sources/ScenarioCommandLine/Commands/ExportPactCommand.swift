import Foundation
import ScenarioContracts
import ScenarioEngine

/// `scenario export-pact`: the scripted exchanges as a Pact v4 file, for a Pact broker's provider
/// verification and `can-i-deploy`.
struct ExportPactCommand: Command {
    static let name = "export-pact"
    static let abstract = "Write the scripted exchanges as a Pact v4 file for a broker"
    static let arguments = "[paths...] -o DIR [options]"
    static let discussion = """
        Paths are scenario files or folders searched recursively (default: Scenarios). Each
        scenario is run once, and every distinct request it sent that an exchange answered is an
        interaction of DIR/CONSUMER-PROVIDER.json: the request as the app sent it (its headers,
        Content-Type and body), each credential a provider-state value (Bearer ${accessToken}),
        and the scripted answer with type matchers for its body. Its provider state names the
        scenario and exchange, with parameters for where the run stands: which call of the route,
        what was answered before, the status, the values the state handler must give and those
        already spent. A scenario that fails is left out (fix it first), as are faults, exchanges
        marked "verify": {"skip": ...} and ones the run never used. --openapi DOC leaves out, with
        each finding, the answers `scenario verify --openapi DOC` refuses. Secrets are replaced by
        stable placeholders unless --keep-secrets. A file that does not load writes nothing.
        """
    static let options: [OptionSpec] = [
        .value("--output", short: "-o", "DIR", "The folder to write the pact file into (required)"),
        .value("--consumer", "NAME", "The consumer's name (default: the driver's name)"),
        .value("--provider", "NAME", "The provider's name (default: \(defaultProvider))"),
        .value("--openapi", "DOC", "Leave out the answers this OpenAPI document refuses, each with its finding"),
        .flag("--keep-secrets", "Do not replace secrets"),
    ]
    static let defaultProvider = "backend"

    var paths: [String]
    var output: String
    var consumer: String?
    var provider: String
    var keepSecrets: Bool
    var openAPI: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        paths = arguments.scenarioPaths
        guard let output = arguments.value("--output") else { throw .missingArgument("-o DIR", command: Self.name) }
        self.output = output
        consumer = arguments.value("--consumer")
        provider = arguments.value("--provider") ?? Self.defaultProvider
        for (option, value) in [("--consumer", consumer), ("--provider", provider)]
        where value?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw .invalidValue(option: option, value: value ?? "", command: Self.name, reason: "a name is needed")
        }
        keepSecrets = arguments.has("--keep-secrets")
        openAPI = arguments.value("--openapi")
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        // The document is read first: a broken one is reported before any scenario runs.
        var verifier: OpenAPIVerifier?
        if let openAPI {
            do {
                verifier = OpenAPIVerifier(document: try OpenAPIDocument.load(path: openAPI))
            } catch {
                throw .invalidDocument(TerminalSafe.escape(error.description))
            }
        }
        let entries = try context.loadScenarios(paths)
        if entries.isEmpty { throw .nothingSelected("no scenario files found in \(paths.joined(separator: ", "))") }
        var export = PactExport(consumer: consumer ?? context.driver.name, provider: provider)
        var failures: [LoadFailure] = []
        var loaded: [(scenario: Scenario, root: JSONNode)] = []
        for entry in entries {
            switch entry.loaded {
            case .failure(let failure):
                failures.append(failure)
            case .success(let scenario):
                do {
                    loaded.append((scenario, try JSONTextParser(data: try ReportFile.read(entry.path), file: entry.path).parseDocument()))
                } catch {
                    failures.append(
                        LoadFailure(
                            file: entry.path, issues: [LoadIssue(location: scenario.location, message: "cannot read the file: \(error)")]))
                }
            }
        }
        guard failures.isEmpty else {
            for failure in failures { context.console.out(failure.description + "\n") }
            context.console.err("error: \(failures.count) file\(failures.count == 1 ? "" : "s") did not load; nothing written\n")
            return .fileProblem
        }
        // The requests are what the app sends: taken from a run, as `scenario export` takes them.
        let incomplete = await export.addRunning(loaded, driver: context.driver, verifier: verifier, keepSecrets: keepSecrets)
        for left in export.leftOut {
            context.console.out(
                "\(left.location): left out exchange '\(TerminalSafe.escape(left.exchange))': \(TerminalSafe.escape(left.reason))\n")
        }
        guard export.interactionCount > 0 else {
            throw .nothingSelected("no exchange could be exported (\(export.leftOut.count) left out)")
        }
        let path = (output as NSString).appendingPathComponent(export.fileName)
        try ReportFile.write(export.document(keepSecrets: keepSecrets, version: ScenarioCLI.version).prettyText + "\n", to: path)
        context.console.out(
            "Wrote \(path): \(export.interactionCount) interaction\(export.interactionCount == 1 ? "" : "s"), \(export.leftOut.count) exchange\(export.leftOut.count == 1 ? "" : "s") left out"
                + (keepSecrets ? "; secrets kept (--keep-secrets)" : "") + "\n")
        return incomplete ? .failure : .success
    }
}
