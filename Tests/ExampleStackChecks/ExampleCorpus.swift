import Foundation
import ScenarioKit

/// An example stack's scenario folder and its driver: what each example's test target checks the
/// same way (every scenario passes on both routes, repeated runs give one outcome, explored
/// schedules pass, and a scenario changed to expect what the app does not do fails). The checks
/// return what they saw; the test says what it expects of it.
public struct ExampleCorpus: Sendable {
    /// Why a scenario could not be had.
    public struct Missing: Error, CustomStringConvertible {
        /// What is missing, and where it was looked for.
        public let description: String
    }

    /// The stack's driver.
    public let driver: any ScenarioDriver
    /// The scenario folder, relative to the package root (for messages).
    public let folder: String
    /// Every scenario file in it, in path order.
    public let scenarios: [DiscoveredScenario]

    /// The scenario ids, for a parameterized test's arguments.
    public var ids: [String] { scenarios.map(\.id) }

    /// The scenarios in `folder` (relative to the package root) for `driver`.
    public init(_ folder: String, driver: any ScenarioDriver) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        self.driver = driver
        self.folder = folder
        self.scenarios = (try? ScenarioDiscovery.find([root.appendingPathComponent(folder).path])) ?? []
    }

    /// The scenario file with this id.
    public func file(_ id: String) throws -> DiscoveredScenario {
        guard let file = scenarios.first(where: { $0.id == id }) else { throw Missing(description: "no scenario \(id) in \(folder)") }
        return file
    }

    /// Loads a scenario; a file that does not load throws every problem found.
    public func load(_ id: String) throws -> Scenario {
        let file = try file(id)
        return try loader.load(contentsOf: file.path, id: file.id).get()
    }

    private var loader: ScenarioLoader { ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys) }

    /// Runs a scenario once.
    public func run(_ id: String, route: RunOptions.Route) async throws -> ScenarioResult {
        await ScenarioRunner(driver: driver, options: RunOptions(route: route)).run(try load(id))
    }

    /// Runs a scenario `runs` times: the first result, and how many of the others differed from
    /// it (``fingerprint(_:)``). A first run that fails is returned alone: repeating it would only
    /// multiply the wait.
    public func repeated(_ id: String, route: RunOptions.Route, runs: Int) async throws -> (first: ScenarioResult, differing: Int) {
        let scenario = try load(id)
        let runner = ScenarioRunner(driver: driver, options: RunOptions(route: route))
        let first = await runner.run(scenario)
        guard first.status == .passed else { return (first, 0) }
        let reference = Self.fingerprint(first)
        var differing = 0
        for _ in 1..<max(1, runs) where Self.fingerprint(await runner.run(scenario)) != reference {
            differing += 1
        }
        return (first, differing)
    }

    /// Runs a scenario under 100 explored schedules of each seed; one result per seed (the first
    /// failure of that seed, with what replays it, or the passing run).
    public func explored(_ id: String, route: RunOptions.Route, seeds: [UInt64]) async throws -> [ScenarioResult] {
        let scenario = try load(id)
        let runner = ScenarioRunner(driver: driver, options: RunOptions(route: route))
        var results: [ScenarioResult] = []
        for seed in seeds {
            results.append(await runner.run(scenario, exploring: .schedules(count: 100, seed: seed)))
        }
        return results
    }

    /// Loads a scenario, lets `change` edit its JSON document, and runs the result on `route`.
    public func runVariant(_ id: String, route: RunOptions.Route, change: (inout [String: Any]) throws -> Void) async throws
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
        return await ScenarioRunner(driver: driver, options: RunOptions(route: route)).run(scenario)
    }

    /// What `scenario export`, `scenario import` and a run of the import do, through the HAR text
    /// with secrets redacted: the run recorded, the imported scenario's text, and its run.
    public func roundTrip(_ id: String, route: RunOptions.Route) async throws -> (
        original: ScenarioResult, imported: String, replayed: ScenarioResult
    ) {
        let runner = ScenarioRunner(driver: driver, options: RunOptions(route: route))
        let (original, trace) = await runner.runRecording(try load(id))
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
    public static func withoutExchangeIDs(_ lines: [String]) -> [String] {
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
    public static func fingerprint(_ result: ScenarioResult) -> String {
        var lines = [result.status.rawValue, "\(result.virtualTime)", result.errorMessage ?? ""] + result.transcript
        for step in result.steps {
            for assertion in step.assertions {
                lines.append("\(step.label) \(assertion.label) \(assertion.passed) \(assertion.actual ?? "-")")
            }
        }
        return lines.joined(separator: "\n")
    }
}
