import ExampleStackChecks
import Foundation
import ScenarioKit
import Testing

/// Export, then import, then run: the imported scenario replays the same transcript as the
/// scenario the trace was exported from, order, concurrency and virtual time included.
@Suite struct TraceRoundTripTests {
    static let scenarios = [
        "blocked-user/concurrent-403s-log-out-once",
        "token-refresh/token-expiry-then-single-shared-refresh",
        "rate-limit/reset-429-one-hour-then-retry-succeeds",
        "startup/user-inactive-at-startup",
        "token-refresh/bare-401-without-code-refreshes",
    ]

    static let corpus = ExampleCorpus("Scenarios", driver: ScenarioSuiteTests.driver)

    /// What `scenario export` does: run the scenario recording what the backend served, on
    /// `route`, then import it and run it again.
    @Test(arguments: scenarios, RunPlan.Route.allCases)
    func exportThenImportReplaysTheSameTranscript(_ id: String, route: RunPlan.Route) async throws {
        let (first, _, second) = try await Self.corpus.roundTrip(id, route: route)
        #expect(first.status == .passed)
        #expect(second.status == .passed, "\(second.explanation)")
        // Exchange ids are the importer's own; everything else (order, concurrency, times,
        // requests and answers, with secrets masked by number) must be the same.
        #expect(ExampleCorpus.withoutExchangeIDs(second.transcript) == ExampleCorpus.withoutExchangeIDs(first.transcript))
        #expect(second.transcript.count == first.transcript.count)
        #expect(second.virtualTime == first.virtualTime)
    }

    @Test func theRecordingKeepsSecretsUntilRedacted() async throws {
        let id = "token-refresh/token-expiry-then-single-shared-refresh"
        let original = try ScenarioSuiteTests.load(ScenarioSuiteTests.root + "/\(id).json", id: id)
        let (_, record) = await ScenarioRunner(driver: ScenarioSuiteTests.driver).runReporting(original)
        let trace = record.har()
        let redacted = TraceRedactor().redact(trace).log.harDocument().prettyText
        let kept = trace.harDocument().prettyText
        for secret in ["acc-feed-old-7Qm2", "ref-feed-old-K9x4"] {
            #expect(!redacted.contains(secret))
            #expect(kept.contains(secret))
        }
    }
}
