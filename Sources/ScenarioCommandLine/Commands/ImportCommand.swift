import Foundation
import ScenarioEngine
import ScenarioShrinking
import ScenarioTraces

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
        With --shrink (and -o), a draft that breaks invariants is shrunk beside it, to the smallest
        scenario that breaks them the same way (NAME-shrunk.json; see 'scenario shrink').
        The scenario goes to standard output unless -o is given. The draft is loaded before it is
        written: a trace that cannot give one that loads fails at its entry (line, column, JSON
        path) and writes nothing. A broken trace exits with 2, and
        so does a driver that lacks what a runnable draft needs (a traceImport; a 'given' for a
        trace that starts signed in): the error says what to add.
        """
    static let options: [OptionSpec] = [
        .value("--output", short: "-o", "FILE", "Write the scenario here (default: standard output)"),
        .value("--host", "H", "Keep only requests to this host (with its port, as proxies show it, or without)"),
        .value("--name", "N", "The scenario's name"),
        .flag("--keep-secrets", "Do not redact secrets"),
        .flag("--keep-static", "Keep images, style sheets, scripts and fonts"),
        .flag("--shrink", "When the draft breaks invariants, also write it shrunk beside it (needs -o)"),
        UnreadBodies.option,
    ]

    var input: String
    var output: String?
    var options: TraceImporter.Options
    var keepSecrets: Bool
    var shrink: Bool
    var dropUnread: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        guard let input = arguments.positionals.first else { throw .missingArgument("a trace to import (TRACE.har)", command: Self.name) }
        if arguments.positionals.count > 1 { throw .unexpectedArgument(arguments.positionals[1], command: Self.name) }
        self.input = input
        output = arguments.value("--output")
        options = TraceImporter.Options(
            host: arguments.value("--host"), name: arguments.value("--name"), keepStaticAssets: arguments.has("--keep-static"))
        keepSecrets = arguments.has("--keep-secrets")
        shrink = arguments.has("--shrink")
        dropUnread = arguments.has(UnreadBodies.flag)
        if dropUnread, keepSecrets { throw .conflictingOptions(UnreadBodies.flag, "--keep-secrets", command: Self.name) }
        if shrink, output == nil {
            throw .missingArgument("-o FILE with --shrink (the shrunk scenario goes beside it)", command: Self.name)
        }
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        var log = try TraceFile.read(input)
        var redaction = "secrets kept (--keep-secrets)"
        if !keepSecrets {
            var redactor = TraceRedactor(extraKeys: context.driver.secretKeys)
            redactor.dropsUnreadBodies = dropUnread
            let report = redactor.redact(&log)
            redaction = report.description + UnreadBodies.note(report)
        }
        var options = self.options
        // A trace this tool exported carries exact virtual times: every gap is meant.
        if log.creator == "SessionScenarios" { options.minimumGap = .milliseconds(1) }
        // The draft is written a piece at a time and loaded with the driver before it takes its
        // name: a trace either gives a scenario that loads or an error naming the entry
        // (file:line:column, JSON path). Standard output gets it only once it has loaded.
        let destination = output ?? NSTemporaryDirectory() + "scenario-import-\(UUID().uuidString).json"
        defer { if output == nil { try? FileManager.default.removeItem(atPath: destination) } }
        let summary: TraceImporter.Summary
        do {
            summary = try TraceImporter(spec: context.driver.traceImport, options: options).importScenario(
                from: consume log, file: input, actions: context.driver.actions, givenKeys: context.driver.givenKeys,
                to: destination)
        } catch let failure as TraceImporter.Failure {
            throw .invalidTrace(failure.description)  // printed as is: one "error:"
        } catch {
            throw .cannotWrite(
                path: output ?? "standard output", reason: (error as? ReportWriteError)?.reason ?? error.localizedDescription)
        }
        let left = summary.notes.isEmpty ? "" : " (" + summary.notes.joined(separator: "; ") + ")"
        let note =
            "Imported \(summary.entries - summary.dropped) of \(summary.entries) entries\(left): "
            + "\(summary.exchanges) exchanges, \(summary.steps) steps, \(summary.appRequests) sent by the app itself, "
            + "\(summary.withoutResponse) without response; \(redaction)\n"
        if let output {
            context.console.out("Wrote \(output). " + note)
            if shrink { await shrinkDraft(output, in: context) }
        } else {
            try Self.copy(destination, to: context.console.out)
            context.console.err(note)
        }
        return .success
    }

    /// Shrinks the draft at `path` beside it when it breaks invariants; says why not otherwise.
    /// The import did its work either way.
    private func shrinkDraft(_ path: String, in context: CLIContext) async {
        let base = path.hasSuffix(".json") ? String(path.dropLast(".json".count)) : path
        guard let draft = (try? ScenarioDiscovery.find([path]))?.first else { return }
        guard !InvariantFiles.inherited(path: draft.path, id: draft.id).invariants.isEmpty else {
            context.console.out(
                "Not shrunk: no invariants.json governs \(path), so there is no rule for a shrink to keep the bug by. "
                    + "`\(ScenarioCLI.programName) init` writes one with a starter rule; or write invariants.json in this folder or one "
                    + "above it (Documentation/scenario-format.md, Invariants), then run `\(ScenarioCLI.programName) shrink \(path) -o \(base)-shrunk.json`.\n"
            )
            return
        }
        var settings = ShrinkSettings()
        settings.same = "invariants"
        let jobs = ProcessInfo.processInfo.activeProcessorCount
        switch await ShrinkCommand.shrink(draft, to: base + "-shrunk.json", settings: settings, route: .direct, jobs: jobs, in: context) {
        case .written(let report):
            context.console.out("The draft breaks invariants; shrunk: " + ShrinkCommand.describe(report))
        case .passes:
            context.console.out("The draft passes: nothing to shrink.\n")
        case .unloadable(let failure):
            context.console.err(failure.description + "\n")
        case .refused(let why):
            context.console.out("Not shrunk: \(why)\n")
        }
    }

    /// The file's text in pieces of about a megabyte, each ending at a line break, so a large
    /// draft is never held whole.
    private static func copy(_ path: String, to out: (String) -> Void) throws(CLIError) {
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            var pending = Data()
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                pending.append(chunk)
                // A line break is one byte in UTF-8 and never inside a character: cut after the last.
                guard let last = pending.lastIndex(of: 0x0A) else { continue }
                out(String(decoding: pending[...last], as: UTF8.self))
                pending = Data(pending[pending.index(after: last)...])
            }
            if !pending.isEmpty { out(String(decoding: pending, as: UTF8.self)) }
        } catch {
            throw .cannotRead(path: path, reason: error.localizedDescription)
        }
    }
}
