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
