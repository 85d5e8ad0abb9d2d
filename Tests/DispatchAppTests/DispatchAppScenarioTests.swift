import DispatchAppDriver
import Foundation
import ScenarioKit
import Testing

/// Every scenario under `Examples/DispatchApp/Scenarios/` passes on both routes.
@Suite struct DispatchAppScenarioTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/DispatchApp/Scenarios").path

    static let corpus: [DiscoveredScenario] = (try? ScenarioDiscovery.find([root])) ?? []
    static let driver = DispatchAppDriver()

    static func load(_ id: String) throws -> Scenario {
        let file = try #require(corpus.first { $0.id == id })
        return try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(contentsOf: file.path, id: file.id).get()
    }

    @Test func theDispatchCorpusIsThere() {
        #expect(Self.corpus.count >= 12, "Examples/DispatchApp/Scenarios holds \(Self.corpus.count) scenarios")
    }

    @Test("every Dispatch app scenario loads", arguments: corpus.map(\.id))
    func loads(id: String) throws {
        _ = try Self.load(id)
    }

    @Test("Dispatch app scenario passes (direct)", arguments: corpus.map(\.id))
    func direct(id: String) async throws {
        try await Self.expectPass(id, route: .direct)
    }

    @Test("Dispatch app scenario passes (URLSession)", arguments: corpus.map(\.id))
    func throughURLSession(id: String) async throws {
        try await Self.expectPass(id, route: .urlSession)
    }

    static func expectPass(_ id: String, route: RunOptions.Route) async throws {
        let scenario = try load(id)
        let result = await ScenarioRunner(driver: driver, options: RunOptions(route: route)).run(scenario)
        #expect(result.status == .passed, "\(result.explanation)")
    }
}
