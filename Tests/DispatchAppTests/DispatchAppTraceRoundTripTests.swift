import DispatchAppDriver
import ExampleStackChecks
import Foundation
import ScenarioKit
import Testing

/// Export, import and run give the same transcript for a stack that retries a 429 or 503 by
/// itself: its retry stays inside the step that sent the request, and a user's own second request
/// stays a step of its own.
@Suite struct DispatchAppTraceRoundTripTests {
    static let corpus = DispatchAppScenarioTests.corpus

    /// The scenario, and how many `request` steps its import must have.
    static let cases: [(id: String, requestSteps: Int)] = [
        ("rate-limit/429-retry-after-3s-retries-at-virtual-3s", 1),
        ("rate-limit/429-http-date-retry-after-3s-retries-at-virtual-3s", 1),
        ("rate-limit/429-retry-after-delta-seconds-then-success", 1),
        ("rate-limit/503-without-retry-after-backs-off-1s-then-2s", 1),
        ("rate-limit/429-three-times-gives-up-with-fallback-message", 1),
        ("rate-limit/429-one-hour-retry-after-is-surfaced", 1),
        ("rate-limit/429-one-hour-surfaced-then-the-user-retries", 2),
    ]

    @Test(arguments: cases.map(\.id), RunPlan.Route.allCases)
    func exportImportAndRunGiveTheSameTranscript(_ id: String, route: RunPlan.Route) async throws {
        let (original, text, replayed) = try await Self.corpus.roundTrip(id, route: route)
        #expect(original.status == .passed, "\(original.explanation)")
        #expect(replayed.status == .passed, "\(replayed.explanation)\n\(text)")
        #expect(ExampleCorpus.withoutExchangeIDs(replayed.transcript) == ExampleCorpus.withoutExchangeIDs(original.transcript))
        #expect(replayed.virtualTime == original.virtualTime)
        let scenario = try #require(JSONValue.parse(Data(text.utf8)))
        let requestSteps = scenario["steps"]?.arrayValue?.filter { $0["do"] == "request" }.count
        #expect(requestSteps == Self.cases.first { $0.id == id }?.requestSteps, "\(text)")
    }
}
