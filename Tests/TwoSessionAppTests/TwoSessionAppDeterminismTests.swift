import ExampleStackChecks
import Foundation
import ScenarioKit
import Testing

/// A hundred runs of a two-session scenario give one transcript, one final state, one alert list
/// and one timeline, byte for byte, on both routes.
@Suite struct TwoSessionAppDeterminismTests {
    static let runs = 100

    @Test("100 direct runs give one outcome", arguments: TwoSessionAppScenarioTests.corpus.ids)
    func direct(id: String) async throws {
        try await Self.check(id, route: .direct)
    }

    @Test("100 URLSession runs give one outcome", arguments: TwoSessionAppScenarioTests.corpus.ids)
    func throughURLSession(id: String) async throws {
        try await Self.check(id, route: .urlSession)
    }

    static func check(_ id: String, route: RunPlan.Route) async throws {
        let (first, differing, firstDifference) = try await TwoSessionAppScenarioTests.corpus.repeated(id, route: route, runs: runs)
        #expect(first.status == .passed, "\(first.explanation)")
        #expect(differing == 0, "\(differing) of \(runs - 1) repeated runs differed from the first: \(firstDifference ?? "")")
    }
}
