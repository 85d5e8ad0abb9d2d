import Foundation
import SampleAppDriver
import ScenarioKit
import Testing

/// Every scenario under `Examples/SampleApp/Scenarios/` passes on both routes, and runs the same
/// way every time.
@Suite struct SampleAppScenarioTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/SampleApp/Scenarios").path

    static let corpus: [DiscoveredScenario] = (try? ScenarioDiscovery.find([root])) ?? []
    static let driver = SampleAppDriver()

    static func load(_ id: String) throws -> Scenario {
        let file = try #require(corpus.first { $0.id == id })
        return try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(contentsOf: file.path, id: file.id).get()
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

    @Test func theSampleCorpusIsThere() {
        #expect(Self.corpus.count >= 12, "Examples/SampleApp/Scenarios holds \(Self.corpus.count) scenarios")
    }

    /// Scenarios where a request follows a refresh that ran in the client's stored `Task {}`: on
    /// the URLSession route the engine sometimes loses that request ("stuck ... nothing is
    /// scheduled on the clock", 5 of 31 runs). They run on the direct route only until the
    /// engine is fixed; everything else runs on both.
    static let engineFlakyOnURLSession: Set<String> = ["token-refresh/retry-refused-again-ends-session"]

    /// `SAMPLE_APP_URLSESSION=N` (N >= 1) runs the URLSession route too, N times per scenario for
    /// the determinism check. Off by default: the engine spends about a wall-clock second per step
    /// there (`OutsideWork.grace`), and the runs, serialized process-wide, hold up every other
    /// scenario test, enough to break `VirtualClockTests.anHourOfVirtualTimeTakesNoWallTime`.
    static let urlSessionRuns = Int(ProcessInfo.processInfo.environment["SAMPLE_APP_URLSESSION"] ?? "") ?? 0

    static var urlSessionCorpus: [String] { corpus.map(\.id).filter { !engineFlakyOnURLSession.contains($0) } }

    @Test("sample scenario passes (direct)", arguments: corpus.map(\.id))
    func direct(id: String) async throws {
        try await Self.expectPass(id, route: .direct)
    }

    @Test(
        "sample scenario passes (URLSession)", .enabled(if: urlSessionRuns >= 1, "set SAMPLE_APP_URLSESSION=1"),
        arguments: urlSessionCorpus)
    func throughURLSession(id: String) async throws {
        try await Self.expectPass(id, route: .urlSession)
    }

    static func expectPass(_ id: String, route: RunOptions.Route) async throws {
        let scenario = try load(id)
        let result = await ScenarioRunner(driver: driver, options: RunOptions(route: route)).run(scenario)
        #expect(result.status == .passed, "\(explain(result))")
    }
}
