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

    /// What `scenario export` does: run the scenario recording what the backend served, on
    /// `route`, then import it and run it again.
    @Test(arguments: scenarios, RunPlan.Route.allCases)
    func exportThenImportReplaysTheSameTranscript(_ id: String, route: RunPlan.Route) async throws {
        let original = try ScenarioSuiteTests.load(ScenarioSuiteTests.root + "/\(id).json", id: id)
        let (first, trace) = await ScenarioRunner(driver: ScenarioSuiteTests.driver, plan: RunPlan(route: route)).runRecording(
            original)
        #expect(first.status == .passed)

        // Through the HAR text, as the commands do, with secrets redacted.
        let har = TraceRedactor().redact(trace).log.harDocument().prettyText
        let log = try HARReader(file: "export.har").read(Data(har.utf8))
        let options = TraceImporter.Options(minimumGap: .milliseconds(1))
        let imported = try TraceImporter(spec: ScenarioSuiteTests.driver.traceImport, options: options).makeScenario(
            from: log, file: "export.har")
        let text = imported.scenario.prettyText
        let driver = ScenarioSuiteTests.driver
        let scenario = try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
            .load(data: Data(text.utf8), file: "imported.json", id: "imported").get()
        let second = await ScenarioRunner(driver: driver, plan: RunPlan(route: route)).run(scenario)
        #expect(second.status == .passed, "\(second.explanation)")
        // Exchange ids are the importer's own; everything else (order, concurrency, times,
        // requests and answers, with secrets masked by number) must be the same.
        #expect(Self.withoutExchangeIDs(second.transcript) == Self.withoutExchangeIDs(first.transcript))
        #expect(second.transcript.count == first.transcript.count)
        #expect(second.virtualTime == first.virtualTime)
    }

    static func withoutExchangeIDs(_ lines: [String]) -> [String] {
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

    @Test func theRecordingKeepsSecretsUntilRedacted() async throws {
        let id = "token-refresh/token-expiry-then-single-shared-refresh"
        let original = try ScenarioSuiteTests.load(ScenarioSuiteTests.root + "/\(id).json", id: id)
        let (_, trace) = await ScenarioRunner(driver: ScenarioSuiteTests.driver).runRecording(original)
        let redacted = TraceRedactor().redact(trace).log.harDocument().prettyText
        let kept = trace.harDocument().prettyText
        for secret in ["acc-feed-old-7Qm2", "ref-feed-old-K9x4"] {
            #expect(!redacted.contains(secret))
            #expect(kept.contains(secret))
        }
    }
}
