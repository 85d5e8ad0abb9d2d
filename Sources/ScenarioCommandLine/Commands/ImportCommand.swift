import Foundation
import ScenarioKit

/// `scenario import`: turns a HAR capture into a scenario that lints clean, secrets redacted.
struct ImportCommand: Command {
    static let name = "import"
    static let abstract = "Turn a HAR trace (Proxyman, Charles, mitmproxy, a browser, Xcode) into a scenario"
    static let arguments = "TRACE.har [options]"
    static let discussion = """
        Exchanges keep capture order (a route answering differently over time becomes ordered
        exchanges), gaps become 'advance' steps, timings become latency, overlapping requests one
        parallel step, and requests the app sends by itself (refresh, health) exchanges only.
        Each step is followed by a check that its requests were sent. A browser's page loads and
        static assets are left out, gaps over 24 h shortened, more than 1,000 concurrent requests
        split; the summary counts each.
        'expect' is a draft of the request counts: finish it with the state and alerts the bug is
        about. Secrets are redacted unless --keep-secrets; the counts per kind are printed.
        The scenario goes to standard output unless -o is given. The draft is loaded before it is
        written: a trace that cannot give one that loads fails at its entry (line, column, JSON
        path) and writes nothing. A broken trace exits with 2, and
        so does a driver that lacks what a runnable draft needs (a traceImport; a 'given' for a
        trace that starts signed in): the error says what to add.
        """
    static let options: [OptionSpec] = [
        .value("--output", short: "-o", "FILE", "Write the scenario here (default: standard output)"),
        .value("--host", "H", "Keep only requests to this host"),
        .value("--name", "N", "The scenario's name"),
        .flag("--keep-secrets", "Do not redact secrets"),
        .flag("--keep-static", "Keep images, style sheets, scripts and fonts"),
    ]

    var input: String
    var output: String?
    var options: TraceImporter.Options
    var keepSecrets: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        guard let input = arguments.positionals.first else { throw .missingArgument("a trace to import (TRACE.har)", command: Self.name) }
        if arguments.positionals.count > 1 { throw .unexpectedArgument(arguments.positionals[1], command: Self.name) }
        self.input = input
        output = arguments.value("--output")
        options = TraceImporter.Options(
            host: arguments.value("--host"), name: arguments.value("--name"), keepStaticAssets: arguments.has("--keep-static"))
        keepSecrets = arguments.has("--keep-secrets")
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        var log = try TraceFile.read(input)
        var redaction = "secrets kept (--keep-secrets)"
        if !keepSecrets {
            redaction = TraceRedactor().redact(&log).description
        }
        var options = self.options
        // A trace this tool exported carries exact virtual times: every gap is meant.
        if log.creator == "SessionScenarios" { options.minimumGap = .milliseconds(1) }
        // The draft is loaded with the driver before anything is written: a trace either gives a
        // scenario that loads or an error naming the entry (file:line:column, JSON path).
        let imported: (text: String, summary: TraceImporter.Summary)
        do {
            imported = try TraceImporter(spec: context.driver.traceImport, options: options).importScenario(
                from: log, file: input, actions: context.driver.actions, givenKeys: context.driver.givenKeys)
        } catch {
            throw .invalidTrace(error.description)  // printed as is: one "error:"
        }
        let text = imported.text
        let summary = imported.summary
        let left = summary.notes.isEmpty ? "" : " (" + summary.notes.joined(separator: "; ") + ")"
        let note =
            "Imported \(summary.entries - summary.dropped) of \(summary.entries) entries\(left): "
            + "\(summary.exchanges) exchanges, \(summary.steps) steps, \(summary.appRequests) sent by the app itself, "
            + "\(summary.withoutResponse) without response; \(redaction)\n"
        if let output {
            try ReportFile.write(text, to: output)
            context.console.out("Wrote \(output). " + note)
        } else {
            context.console.out(text)
            context.console.err(note)
        }
        return .success
    }
}
