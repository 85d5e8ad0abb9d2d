import Foundation
import ScenarioEngine

/// Turns a HAR capture into a scenario document in this package's format.
///
/// - Order: exchanges keep capture order; one endpoint answering differently over time becomes
///   ordered exchanges (`times`, `after`).
/// - Time: gaps between the app's actions become `advance` steps, entry times become `latency`,
///   and virtual time starts at the capture's first instant (so HTTP-date `Retry-After` still works).
/// - Concurrency: overlapping requests become one parallel step whose answers are held
///   (`release.whenPending`) until all are in flight.
/// - The stack's own requests (``TraceImportSpec/appRequests``), retries after a 401 and
///   followed redirects become exchanges only; everything else becomes a step with the driver's
///   request action.
/// - `expect` is a draft (request counts), marked in the description for the author to finish.
package struct TraceImporter: Sendable {
    /// Choices for one import.
    package struct Options: Sendable {
        /// Keep only entries for this host (`nil`: all).
        package var host: String?
        /// The scenario's name (`nil`: derived from the file name).
        package var name: String?
        /// Keep images, style sheets, scripts and fonts (dropped by default).
        package var keepStaticAssets: Bool
        /// Gaps shorter than this between actions are noise, not `advance` steps.
        package var minimumGap: Duration

        /// Creates options.
        package init(host: String? = nil, name: String? = nil, keepStaticAssets: Bool = false, minimumGap: Duration = .milliseconds(500)) {
            self.host = host
            self.name = name
            self.keepStaticAssets = keepStaticAssets
            self.minimumGap = minimumGap
        }
    }

    /// What the import produced, for the command to print.
    package struct Summary: Sendable, Hashable {
        /// Entries read from the file.
        package var entries = 0
        /// Entries left out, all reasons together.
        package var dropped: Int { droppedByHost + droppedAssets + droppedDocuments + droppedPreflights + droppedTunnels + droppedUnusable }
        /// Entries for other hosts than `--host`.
        package var droppedByHost = 0
        /// Images, style sheets, scripts, fonts and favicons.
        package var droppedAssets = 0
        /// Page loads of a browser export (HTML documents the browser navigated to).
        package var droppedDocuments = 0
        /// CORS preflights a browser sent before a cross-origin call (`OPTIONS` with
        /// `Access-Control-Request-Method`, or answered with `Access-Control-Allow-Methods`).
        package var droppedPreflights = 0
        /// A proxy's tunnels (`CONNECT host:443`): the encrypted connection, not a request of the app.
        package var droppedTunnels = 0
        /// Entries whose URL or method no request can have (not http(s), no path, a method with other characters).
        package var droppedUnusable = 0
        /// Gaps longer than ``TraceImporter/maximumGap`` (or before a start instant out of range), shortened.
        package var clampedGaps = 0
        /// Runs of more than ``TraceImporter/maximumConcurrent`` overlapping requests, split into steps of at most that many.
        package var splitGroups = 0
        /// Answer bodies holding integers of 2^53 or more (64-bit ids), written as exact text
        /// instead of JSON, whose numbers would round them.
        package var bigIntegerBodiesAsText = 0
        /// Bodies nested too deeply to be JSON in a scenario, written as exact text instead.
        package var deepBodiesAsText = 0
        /// A second `Set-Cookie` of an answer, or a query name repeated in a request: a scenario's
        /// headers and query are objects, so the first value is kept (other repeated headers are
        /// joined with `, `).
        package var repeatedNamesKeptOnce = 0
        /// Bodies the capture keeps in files of their own (Playwright's attach mode) that were not beside it.
        package var attachedBodiesNotFound = 0
        /// Requests a dedicated action would send but that it cannot send as captured (arguments missing or not JSON), imported as plain requests.
        package var plainInsteadOfAction = 0
        /// Step requests whose body is not JSON (a form, multipart): the request action sends JSON
        /// only, so their exchanges do not match on the body.
        package var bodiesTheStepCannotSend = 0

        /// One line for the command: what was left out, clamped or split, and why.
        package var notes: [String] {
            var notes: [String] = []
            if droppedByHost > 0 { notes.append("\(droppedByHost) for other hosts") }
            if droppedAssets > 0 { notes.append("\(droppedAssets) static assets (--keep-static keeps them)") }
            if droppedDocuments > 0 { notes.append("\(droppedDocuments) page loads of a browser") }
            if droppedPreflights > 0 { notes.append("\(droppedPreflights) CORS preflights of a browser") }
            if droppedTunnels > 0 { notes.append("\(droppedTunnels) proxy tunnels (CONNECT)") }
            if droppedUnusable > 0 { notes.append("\(droppedUnusable) without a usable http(s) URL or method") }
            if clampedGaps > 0 { notes.append("\(clampedGaps) gaps shortened to 24h") }
            if splitGroups > 0 { notes.append("\(splitGroups) runs of over \(TraceImporter.maximumConcurrent) concurrent requests split") }
            if repeatedNamesKeptOnce > 0 { notes.append("\(repeatedNamesKeptOnce) repeated query or Set-Cookie names kept once") }
            if attachedBodiesNotFound > 0 {
                notes.append(
                    "\(attachedBodiesNotFound) bodies kept in files of their own not found beside the capture (unzip it there, or record with content embedded)"
                )
            }
            if deepBodiesAsText > 0 { notes.append("\(deepBodiesAsText) deeply nested bodies kept as text") }
            if bigIntegerBodiesAsText > 0 { notes.append("\(bigIntegerBodiesAsText) answers with 64-bit integers kept as text") }
            if plainInsteadOfAction > 0 {
                notes.append("\(plainInsteadOfAction) action requests its action cannot send, imported as plain requests")
            }
            if bodiesTheStepCannotSend > 0 {
                notes.append(
                    "\(bodiesTheStepCannotSend) request bodies that are not JSON, which a step cannot send: their exchanges match without the body"
                )
            }
            return notes
        }
        /// Exchanges written.
        package var exchanges = 0
        /// Steps written.
        package var steps = 0
        /// Entries the stack sends by itself (exchanges only).
        package var appRequests = 0
        /// Entries without a response (written as faults).
        package var withoutResponse = 0
    }

    /// Why a trace cannot be imported: where (file, line and column of the entry, its JSON path),
    /// what is wrong and what to do, in the `file:line:column: error:` form of load issues.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The issue, located in the trace.
        package var issue: LoadIssue
        /// The entry it is about, when one is.
        package var entry: Int?

        /// Creates a failure about the whole trace (`$.log.entries`) or one entry of it.
        package init(
            file: String, entry: HARLog.Entry? = nil, index: Int? = nil, at subpath: String = "", _ message: String, hint: String? = nil
        ) {
            self.init(file: file, position: entry?.position, index: index, at: subpath, message, hint: hint)
        }

        /// Creates a failure about the entry written at `position`.
        init(
            file: String, position: HARLog.SourcePosition?, index: Int?, at subpath: String = "", _ message: String, hint: String? = nil
        ) {
            let entries = JSONPath.appending(JSONPath.appending(JSONPath.root, key: "log"), key: "entries")
            let path = index.map { JSONPath.appending(entries, index: $0) + subpath } ?? entries
            let line = position?.line ?? 1
            let column = position?.column ?? 1
            issue = LoadIssue(
                location: ScenarioLocation(file: file, line: max(1, line), column: max(1, column), path: path), message: message, hint: hint
            )
            self.entry = index
        }

        /// `file:line:column: error: message (at $.log.entries[i]) — what to do`.
        package var description: String { issue.description }
    }

    /// The longest gap written as one `advance`; longer ones are shortened and counted.
    package static let maximumGap = 86_400_000
    /// The most overlapping requests one step holds (the loader's bound on `parallel`).
    package static let maximumConcurrent = ScenarioDecoder.maximumParallel
    /// How deeply a body may nest to be written as JSON: the scenario's own nesting around it
    /// (a group member's `with.json` is 7 levels down) must stay within the loader's bound.
    static let maximumBodyDepth = JSONTextParser.maximumDepth - 8

    /// What the driver says about its stack.
    package let spec: TraceImportSpec
    /// The choices.
    package let options: Options

    /// Creates an importer.
    package init(spec: TraceImportSpec, options: Options = Options()) {
        self.spec = spec
        self.options = options
    }

    /// The scenario document for `log`, read from `file` (named in the description).
    package func makeScenario(from log: HARLog, file: String) throws(Failure) -> (scenario: JSONValue, summary: Summary) {
        var document = DraftDocument()
        let drafted = try writeDraft(from: log, file: file, to: &document)
        return (.object(document.object), drafted.summary)
    }

    /// The scenario text for `log`, checked with the real loader (`actions` and `givenKeys` as
    /// the driver declares them) before it is returned: a draft the loader would reject is a
    /// ``Failure`` naming the entry it came from, never a file.
    package func importScenario(
        from log: HARLog, file: String, actions: [ActionSpec], givenKeys: [GivenSpec]
    ) throws(Failure) -> (text: String, summary: Summary) {
        try checkRequestAction(in: actions, file: file)
        let text = TextBox()
        var writer = PrettyObjectWriter { text.bytes += $0 }
        let drafted = try writeDraft(from: log, file: file, to: &writer)
        writer.end()
        text.bytes.append(0x0A)
        let failure = ScenarioLoader(actions: actions, givenKeys: givenKeys).check(bytes: text.bytes, file: Self.draftName, id: "imported")
        if let failure { throw Self.failure(failure, of: drafted, positions: log.entries.map(\.position), file: file) }
        return (String(decoding: text.bytes, as: UTF8.self), drafted.summary)
    }

    /// Writes the scenario for `log` to `path`, a piece at a time, and checks what was written
    /// with the real loader before the file takes its name: a draft the loader would reject is
    /// a ``Failure`` naming the entry it came from, and nothing is left at `path`. The capture
    /// is let go of before the draft is read back, so the two are never held together.
    /// - Throws: a ``Failure``, or the error that kept the file from being written.
    package func importScenario(
        from log: consuming HARLog, file: String, actions: [ActionSpec], givenKeys: [GivenSpec], to path: String
    ) throws -> Summary {
        try checkRequestAction(in: actions, file: file)
        let positions = log.entries.map(\.position)
        let output = try ReportOutput(path: path)
        var writer = PrettyObjectWriter(write: output.append)
        let drafted = try writeDraft(from: log, file: file, to: &writer)
        _ = consume log
        FreedMemory.release()
        writer.end()
        output.append([0x0A])
        try output.close()
        let mapped = try MappedFile(path: output.partialPath)
        let failure = ScenarioLoader(actions: actions, givenKeys: givenKeys).check(mapped: mapped, file: Self.draftName, id: "imported")
        if let failure { throw Self.failure(failure, of: drafted, positions: positions, file: file) }
        try output.commit()
        return drafted.summary
    }

    /// The arguments the import gives the driver's request action: `path` always, `method` but
    /// for a GET, `query` and `json` when the call has them, and the spec's
    /// ``TraceImportSpec/requestWithoutCredentials`` (`false`) for a call sent without credentials.
    package static let requestArguments = ["method", "path", "query", "json"]

    /// Refuses, before anything is read, a driver whose request action requires an argument
    /// the import leaves out of some calls (or never gives): every draft would fail to load.
    func checkRequestAction(in actions: [ActionSpec], file: String) throws(Failure) {
        guard let name = spec.requestAction, let action = actions.first(where: { $0.name == name }) else { return }
        let always = ["path"]
        let sometimes = Self.requestArguments.filter { !always.contains($0) } + [spec.requestWithoutCredentials].compactMap { $0 }
        for argument in action.arguments where argument.required && !always.contains(argument.name) {
            let when =
                sometimes.contains(argument.name)
                ? "which the import leaves out of calls that do not need it (\(argument.name == "method" ? "a GET" : "a call without one"))"
                : "which the import never gives (it gives \(Self.requestArguments.joined(separator: ", ")))"
            throw Failure(
                file: file, "the driver's request action '\(name)' requires '\(argument.name)', \(when)",
                hint:
                    "make '\(argument.name)' optional in the driver's ActionSpec (Documentation/api.md, \"What import gives the request action\")"
            )
        }
    }

    /// The name the draft has in the loader's issues.
    private static let draftName = "<imported>"

    /// The loader's first issue with a draft, told as a failure of the entry it came from:
    /// `$.exchanges[3]...` and `$.steps[7]...` lead back to it.
    private static func failure(_ failure: LoadFailure, of drafted: Drafted, positions: [HARLog.SourcePosition], file: String) -> Failure {
        let issue = failure.issues.first
        let path = issue?.location.path ?? ""
        func index(after prefix: String) -> Int? {
            guard path.hasPrefix(prefix) else { return nil }
            return Int(path.dropFirst(prefix.count).prefix { $0.isNumber })
        }
        var entry: Int?
        if let exchange = index(after: "$.exchanges["), exchange < drafted.exchangeEntries.count {
            entry = drafted.exchangeEntries[exchange]
        } else if let step = index(after: "$.steps["), step < drafted.stepEntries.count {
            entry = drafted.stepEntries[step]
        }
        let what = issue.map { "\($0.message) (at \($0.location.path) of the scenario)" } ?? "it does not load"
        let position = entry.flatMap { $0 < positions.count ? positions[$0] : nil }
        if let part = DriverPart(path: path) {
            // What the driver's own `traceImport` decided, refused by the driver's own declarations.
            return Failure(
                file: file, position: part == .given ? nil : position, index: part == .given ? nil : entry,
                "the driver's traceImport gives a scenario its own declarations refuse: \(what)", hint: part.hint)
        }
        return Failure(
            file: file, position: position, index: entry, "the scenario this trace gives would not load: \(what)",
            hint: entry != nil
                ? "leave this entry out of the export (or cut the trace before it); please report it with the trace"
                : "please report this with the trace")
    }

    /// The parts of a draft the driver's ``TraceImportSpec`` decides: `given` (but the clock), and
    /// each step's action and arguments. The loader refusing one is the driver's mistake.
    enum DriverPart {
        case given, action

        init?(path: String) {
            if path.hasPrefix("$.given"), !path.hasPrefix("$.given.clock") {
                self = .given
            } else if path.hasPrefix("$.steps["), path.hasSuffix(".do") || path.contains(".with") {
                self = .action
            } else {
                return nil
            }
        }

        /// What to fix in the driver.
        var hint: String {
            switch self {
            case .given:
                "make the driver's TraceImportSpec 'given' build what its givenKeys accept: when a credential is nil, "
                    + "leave the member out rather than writing null (Documentation/api.md, \"Importing traces\")"
            case .action:
                "make the driver's TraceImportSpec name actions its 'actions' declare, with arguments they take "
                    + "(the request action takes method, path, query and json; an action rule's arguments are its keys)"
            }
        }
    }
}

/// Text built from the writer's pieces.
private final class TextBox {
    var bytes: [UInt8] = []
}
