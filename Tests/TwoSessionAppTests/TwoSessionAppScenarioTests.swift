import Foundation
import ScenarioKit
import Testing
import TwoSessionAppDriver

/// Every scenario under `Examples/TwoSessionApp/Scenarios/` passes on both routes.
@Suite struct TwoSessionAppScenarioTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/TwoSessionApp/Scenarios").path

    static let corpus: [DiscoveredScenario] = (try? ScenarioDiscovery.find([root])) ?? []
    static let driver = TwoSessionAppDriver()

    static func load(_ id: String) throws -> Scenario {
        let file = try #require(corpus.first { $0.id == id })
        return try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(contentsOf: file.path, id: file.id).get()
    }

    @Test func theCorpusIsThere() {
        #expect(Self.corpus.count >= 9, "Examples/TwoSessionApp/Scenarios holds \(Self.corpus.count) scenarios")
    }

    @Test("two-session scenario passes (direct)", arguments: corpus.map(\.id))
    func direct(id: String) async throws {
        try await Self.expectPass(id, route: .direct)
    }

    @Test("two-session scenario passes (URLSession)", arguments: corpus.map(\.id))
    func throughURLSession(id: String) async throws {
        try await Self.expectPass(id, route: .urlSession)
    }

    static func expectPass(_ id: String, route: RunOptions.Route) async throws {
        let scenario = try load(id)
        let result = await ScenarioRunner(driver: driver, options: RunOptions(route: route)).run(scenario)
        #expect(result.status == .passed, "\(result.explanation)")
    }
}
