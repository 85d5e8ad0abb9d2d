import Foundation
import ScenarioKit

/// An example stack's scenario folder and its driver: what each example's test target checks the
/// same way (every scenario passes on both routes, repeated runs give one outcome, explored
/// schedules pass, and a scenario changed to expect what the app does not do fails). The checks
/// return what they saw; the test says what it expects of it.
package struct ExampleCorpus: Sendable {
    /// Why a scenario could not be had.
    package struct Missing: Error, CustomStringConvertible {
        /// What is missing, and where it was looked for.
        package let description: String
    }

    /// The stack's driver.
    package let driver: any ScenarioDriver
    /// The scenario folder, relative to the package root (for messages).
    package let folder: String
    /// Every scenario file in it, in path order.
    package let scenarios: [DiscoveredScenario]

    /// The scenario ids, for a parameterized test's arguments.
    package var ids: [String] { scenarios.map(\.id) }

    /// The scenarios in `folder` (relative to the package root) for `driver`.
    package init(_ folder: String, driver: any ScenarioDriver) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        self.driver = driver
        self.folder = folder
        self.scenarios = (try? ScenarioDiscovery.find([root.appendingPathComponent(folder).path])) ?? []
    }

    /// The scenario file with this id.
    package func file(_ id: String) throws -> DiscoveredScenario {
        guard let file = scenarios.first(where: { $0.id == id }) else { throw Missing(description: "no scenario \(id) in \(folder)") }
        return file
    }

    /// Loads a scenario; a file that does not load throws every problem found.
    package func load(_ id: String) throws -> Scenario {
        let file = try file(id)
        return try loader.load(contentsOf: file.path, id: file.id).get()
    }

    private var loader: ScenarioLoader { ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys) }

    /// What keeps the corpus from conforming to the OpenAPI document at `document` (relative to
    /// the package root): each finding, each exchange that could not be checked and each file that
    /// did not load; and how many exchanges conform.
    package func contractProblems(against document: String) throws -> (problems: [String], conforming: Int) {
        let run = try verified(against: document)
        let problems =
            run.loadFailures.map(\.description)
            + run.scenarios.flatMap(\.exchanges).flatMap { exchange in
                exchange.findings.map(\.description) + exchange.unchecked.map { "\(exchange.location): could not check: \($0.description)" }
            }
        return (problems, run.exchangeCounts[.conforms] ?? 0)
    }

    /// Every scripted answer of the corpus checked against the OpenAPI document at `document`
    /// (relative to the package root), as `scenario verify` checks it.
    package func verified(against document: String) throws -> VerificationRun {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent(document).path
        let verifier = OpenAPIVerifier(document: try OpenAPIDocument.load(path: path))
        let entries = scenarios.map { SuiteRunner.Entry(path: $0.path, id: $0.id, loaded: loader.load(contentsOf: $0.path, id: $0.id)) }
        return ContractVerification.run(entries, against: document, driver: driver, showSecrets: false, verdict: verifier.verify)
    }

    /// Runs a scenario once.
    package func run(_ id: String, route: RunPlan.Route) async throws -> ScenarioResult {
        await ScenarioRunner(driver: driver, plan: RunPlan(route: route)).run(try load(id))
    }

    /// Runs a scenario `runs` times: the first result, and how many of the others differed from
    /// it (``fingerprint(_:)``). A first run that fails is returned alone: repeating it would only
    /// multiply the wait.
    package func repeated(_ id: String, route: RunPlan.Route, runs: Int) async throws
        -> (first: ScenarioResult, differing: Int, firstDifference: String?)
    {
        let scenario = try load(id)
        let runner = ScenarioRunner(driver: driver, plan: RunPlan(route: route))
        let first = await runner.run(scenario)
        guard first.status == .passed else { return (first, 0, nil) }
        let reference = Self.fingerprint(first)
        var differing = 0
        var firstDifference: String?
        for run in stride(from: 2, through: runs, by: 1) {
            let result = await runner.run(scenario)
            let print = Self.fingerprint(result)
            guard print != reference else { continue }
            differing += 1
            if firstDifference == nil { firstDifference = Self.difference(reference, print, run: run, result: result) }
        }
        return (first, differing, firstDifference)
    }

    /// Where run `run` first left the first run's fingerprint, and how that run ended.
    private static func difference(_ reference: String, _ other: String, run: Int, result: ScenarioResult) -> String {
        let (expected, got) = (
            reference.split(separator: "\n", omittingEmptySubsequences: false),
            other.split(separator: "\n", omittingEmptySubsequences: false)
        )
        let line = zip(expected, got).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, got.count)
        let was = line < expected.count ? String(expected[line]) : "(nothing)"
        let now = line < got.count ? String(got[line]) : "(nothing)"
        return "run \(run), line \(line + 1): first run «\(was)», this run «\(now)»\n\(result.explanation)"
    }

    /// Runs a scenario under 100 explored schedules of each seed; one result per seed (the first
    /// failure of that seed, with what replays it, or the passing run).
    package func explored(_ id: String, route: RunPlan.Route, seeds: [UInt64]) async throws -> [ScenarioResult] {
        let scenario = try load(id)
        var results: [ScenarioResult] = []
        for seed in seeds {
            let runner = ScenarioRunner(driver: driver, plan: RunPlan(route: route, mode: .explored(schedules: 100, seed: seed)))
            results.append(await runner.run(scenario))
        }
        return results
    }

    /// Loads a scenario, lets `change` edit its JSON document, and runs the result on `route`.
    package func runVariant(_ id: String, route: RunPlan.Route, change: (inout [String: Any]) throws -> Void) async throws
        -> ScenarioResult
    {
        let file = try file(id)
        let original = try Data(contentsOf: URL(fileURLWithPath: file.path))
        guard var document = try JSONSerialization.jsonObject(with: original) as? [String: Any] else {
            throw Missing(description: "\(file.path) is not a JSON object")
        }
        try change(&document)
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        let scenario = try loader.load(data: data, file: file.path, id: id).get()
        return await ScenarioRunner(driver: driver, plan: RunPlan(route: route)).run(scenario)
    }

    /// What `scenario export`, `scenario import` and a run of the import do, through the HAR text
    /// with secrets redacted: the run recorded, the imported scenario's text, and its run.
    package func roundTrip(_ id: String, route: RunPlan.Route) async throws -> (
        original: ScenarioResult, imported: String, replayed: ScenarioResult
    ) {
        let runner = ScenarioRunner(driver: driver, plan: RunPlan(route: route))
        let (original, record) = await runner.runReporting(try load(id))
        let trace = record.har()
        let har = TraceRedactor().redact(trace).log.harText()
        let log = try HARReader(file: "export.har").read(Data(har.utf8))
        // An exported trace carries exact virtual times, as `scenario import` reads it.
        let text = try TraceImporter(spec: driver.traceImport, options: TraceImporter.Options(minimumGap: .milliseconds(1)))
            .importScenario(from: log, file: "export.har", actions: driver.actions, givenKeys: driver.givenKeys).text
        let imported = try loader.load(data: Data(text.utf8), file: "imported.json", id: "imported").get()
        return (original, text, await runner.run(imported))
    }

    /// A transcript without the exchange ids, which are the importer's own: what a round trip
    /// must give again.
    package static func withoutExchangeIDs(_ lines: [String]) -> [String] {
        lines.map { line in
            if let held = line.range(of: " held by '"), let end = line[held.upperBound...].firstIndex(of: "'") {
                return String(line[..<held.upperBound]) + String(line[end...])
            }
            guard let via = line.range(of: " via ") else { return line }
            let rest = line[via.upperBound...]
            let end = rest.firstIndex(of: " ") ?? rest.endIndex
            return String(line[..<via.lowerBound]) + String(rest[end...])
        }
    }

    /// The transcript plus every assertion's observed value (state, alerts, timeline, outcomes):
    /// what must be the same on every run.
    package static func fingerprint(_ result: ScenarioResult) -> String {
        var lines = [result.status.rawValue, "\(result.virtualTime)", result.errorMessage ?? ""] + result.transcript
        for step in result.steps {
            for assertion in step.assertions {
                lines.append("\(step.label) \(assertion.label) \(assertion.passed) \(assertion.actual ?? "-")")
            }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Where only Swift concurrency is captured

    /// Whether this process captures Swift concurrency only (`SCENARIO_CAPTURE=concurrencyOnly`):
    /// what Apple platforms get. The example's `concurrency-only.json` then says what each
    /// scenario does, instead of "passes".
    package static var capturesConcurrencyOnly: Bool { ScenarioHost.shared.level == .concurrencyOnly }

    /// How a run ended, as `concurrency-only.json` writes it: `passed`, `escapes` (work left the
    /// scenario: an escape, or a wait on something only another thread ends, with the advice to
    /// declare it), or the status and first problem otherwise.
    package static func outcomeUnderConcurrencyOnly(_ result: ScenarioResult) -> String {
        let message = result.errorMessage ?? ""
        let advised = message.contains("context.outsideWork(_:)") && message.contains("capture of Swift concurrency only")
        if result.status == .error, advised, message.contains("escaped: ") || message.contains("stuck: ") {
            return "escapes"
        }
        if result.status == .passed { return "passed" }
        return "\(result.status.rawValue): \(result.failures.first?.summary ?? message)"
    }

    /// What `concurrency-only.json` beside the scenario folder says scenario `id` does on `route`.
    package func expectedUnderConcurrencyOnly(_ id: String, route: RunPlan.Route) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent(folder).deletingLastPathComponent().appendingPathComponent("concurrency-only.json").path
        guard let data = FileManager.default.contents(atPath: path), let file = JSONValue.parse(data),
            let outcome = file["outcomes"]?[id]?[route.rawValue]?.stringValue
        else { throw Missing(description: "\(path) says nothing of \(id) on the \(route.rawValue) route") }
        return outcome
    }
}
