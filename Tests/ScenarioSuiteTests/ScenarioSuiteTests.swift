import Foundation
import ScenarioKit
import SessionKitDriver
import Testing

/// Every scenario under `Scenarios/` is its own test case, run through the direct transport
/// and again through URLSession and the URLProtocol adapter.
@Suite struct ScenarioSuiteTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios").path

    /// Scenario ids, found once when the suite is built.
    static let corpus: [DiscoveredScenario] = (try? ScenarioDiscovery.find([root])) ?? []

    @Test func theCorpusIsThere() {
        #expect(Self.corpus.count >= 30, "Scenarios/ holds \(Self.corpus.count) scenarios")
    }

    @Test("scenario (direct transport)", arguments: corpus.map(\.id))
    func direct(id: String) async throws {
        try await Self.run(id, route: .direct)
    }

    @Test("scenario (URLSession + URLProtocol)", arguments: corpus.map(\.id))
    func throughURLSession(id: String) async throws {
        try await Self.run(id, route: .urlSession)
    }

    static let driver = SessionKitDriver()

    /// Loads one scenario file for the SessionKit driver; a load failure is thrown with every issue.
    static func load(_ path: String, id: String) throws -> Scenario {
        try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(contentsOf: path, id: id).get()
    }

    static func run(_ id: String, route: RunOptions.Route) async throws {
        let file = try #require(corpus.first { $0.id == id })
        let scenario = try load(file.path, id: file.id)
        let result = await ScenarioRunner(driver: driver, options: RunOptions(route: route)).run(scenario)
        #expect(result.status == .passed, "\(Self.explain(result))")
    }

    static func explain(_ result: ScenarioResult) -> String {
        var lines = [result.errorMessage ?? ""]
        for failure in result.failures {
            lines.append("\(failure.label): \(failure.message)")
            if let diff = failure.diff { lines.append(diff) }
        }
        lines.append("transcript:")
        lines += result.transcript
        return lines.joined(separator: "\n")
    }
}

/// The same scenario gives a byte-identical transcript and result on every run.
@Suite struct DeterminismTests {
    @Test(arguments: ScenarioSuiteTests.corpus.map(\.id))
    func hundredRunsGiveOneTranscript(id: String) async throws {
        let file = try #require(ScenarioSuiteTests.corpus.first { $0.id == id })
        let scenario = try ScenarioSuiteTests.load(file.path, id: id)
        let runner = ScenarioRunner(driver: ScenarioSuiteTests.driver)
        let first = await runner.run(scenario)
        var differing = 0
        for _ in 1..<100 {
            let again = await runner.run(scenario)
            if again.transcript != first.transcript || again.status != first.status || again.virtualTime != first.virtualTime {
                differing += 1
            }
        }
        #expect(differing == 0, "\(differing) of 99 repeated runs differed from the first")
    }
}
