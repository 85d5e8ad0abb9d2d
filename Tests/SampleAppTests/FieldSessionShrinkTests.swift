import FieldSessionDriver
import Foundation
import ScenarioKit
import Testing

/// The repository's long field session (Examples/FieldSession): a whole session of the sample
/// app's field build, whose feed refreshes on its own, breaks two invariants once in 130
/// requests; the shrinker cuts it to the few steps and exchanges the bug needs.
@Suite struct FieldSessionShrinkTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = root.appendingPathComponent("Examples/FieldSession")
    static let session = DiscoveredScenario(path: folder.appendingPathComponent("Scenarios/field-session.json").path, id: "field-session")
    static let broken: Set<String> = ["refresh-token-spent-once", "one-refresh-at-a-time"]

    static func brokenInvariants(_ result: ScenarioResult) -> Set<String> {
        Set(result.failures.map(\.label).filter { $0.hasPrefix("invariant ") }.map { String($0.dropFirst("invariant ".count)) })
    }

    static func load(_ file: DiscoveredScenario) throws -> Scenario {
        let driver = FieldSessionDriver()
        return try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(contentsOf: file.path, id: file.id).get()
    }

    @Test func theSessionIsLongAndFailsByTheTwoRefreshInvariants() async throws {
        let scenario = try Self.load(Self.session)
        #expect(scenario.steps.count == 135)
        #expect(scenario.exchanges.count == 15)
        let result = await ScenarioRunner(driver: FieldSessionDriver()).run(scenario)
        #expect(result.status == .failed)
        #expect(Self.brokenInvariants(result) == Self.broken, "\(result.failures.map(\.summary))")
        #expect(result.transcript.filter { $0.contains(" → ") }.count == 130)
    }

    @Test func theSessionShrinksToTheFewStepsAndExchangesTheBugNeeds() async throws {
        try await Self.shrinksToTheBug(Self.session)
    }

    /// The checked-in trace is what `scenario export` writes for the session (a run recorded by
    /// the scripted backend, redacted), so the two cannot drift apart.
    @Test func theTraceIsTheSessionsExport() async throws {
        let scenario = try Self.load(Self.session)
        let (_, record) = await ScenarioRunner(driver: FieldSessionDriver()).runReporting(scenario)
        let written = try String(contentsOf: Self.folder.appendingPathComponent("Traces/field-session.har"), encoding: .utf8)
        #expect(TraceRedactor.exporting(scenario, driver: FieldSessionDriver()).redact(record.har()).log.harText() == written)
        #expect(!written.contains("acc-field-") && !written.contains("ref-field-"), "the trace is redacted")
    }

    /// The scenario `scenario import` makes of the trace (every request a step or an exchange,
    /// a check after each step) shrinks the same way.
    @Test func theImportOfItsTraceShrinksToTheBugToo() async throws {
        let driver = FieldSessionDriver()
        let trace = try HARReader(file: "field-session.har").read(
            bytes: FileBytes.read(Self.folder.appendingPathComponent("Traces/field-session.har").path))
        // As `scenario import` reads a trace this package exported: every gap is meant.
        var options = TraceImporter.Options()
        options.minimumGap = .milliseconds(1)
        let (text, _) = try TraceImporter(spec: driver.traceImport, options: options).importScenario(
            from: TraceRedactor().redact(trace).log, file: "field-session.har", actions: driver.actions, givenKeys: driver.givenKeys)
        // Beside a copy of the session's invariant file, which governs it as it governs the session.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("field-import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.folder.appendingPathComponent("Scenarios/invariants.json"), to: folder.appendingPathComponent("invariants.json"))
        let draft = DiscoveredScenario(path: folder.appendingPathComponent("imported.json").path, id: "imported")
        try text.write(toFile: draft.path, atomically: true, encoding: .utf8)
        let imported = try Self.load(draft)
        #expect(imported.steps.count > 135, "the draft checks the requests after each step")
        try await Self.shrinksToTheBug(draft)
    }

    /// Shrinks `file` beside itself and checks the result: at most 5 exchanges (both refusals,
    /// the refresh and both retries: a regression test scripts every answer its run needs) and 3
    /// steps, breaking both invariants and nothing else, written where it fails that way.
    static func shrinksToTheBug(_ file: DiscoveredScenario) async throws {
        let output = (file.path as NSString).deletingLastPathComponent + "/\(file.id)-shrunk-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: output) }
        // No time limit that a loaded machine could reach: the result must not depend on wall time.
        var settings = ShrinkSettings()
        settings.timeLimit = .seconds(3_600)
        let shrinker = ScenarioShrinker(driver: FieldSessionDriver(), plan: RunPlan(), settings: settings)
        let outcome = await shrinker.shrink(file, to: output)
        guard case .written(let report) = outcome else {
            Issue.record("not written: \(outcome)")
            return
        }
        #expect(report.kept.parts.map(\.key).sorted() == Self.broken.map { "invariant:\($0)" }.sorted())
        let shrunk = try Self.load(DiscoveredScenario(path: output, id: "shrunk"))
        #expect(shrunk.steps.count <= 3, "\(report.summary)")
        #expect(shrunk.exchanges.count <= 5, "\(report.summary)")
        #expect(report.to == ShrinkSize(steps: shrunk.steps.count, exchanges: shrunk.exchanges.count))
        let result = await ScenarioRunner(driver: FieldSessionDriver()).run(shrunk)
        #expect(Self.brokenInvariants(result) == Self.broken, "\(result.failures.map(\.summary))")
        #expect(result.failures.count == 2, "it fails by the two invariants alone: \(result.failures.map(\.summary))")
    }
}
