import Foundation
import ScenarioKit
import Testing

/// Captures made by real tools (`scripts/traces/`): mitmproxy in front of a Python client,
/// Chromium's own HAR through Playwright (a full-page export: the page, gzip answers, a followed
/// redirect) and Python's requests-har recorder (times in seconds, starts at the response). Each
/// imports to a scenario its loader takes; each brief case replays as imported on SessionKit.
@Suite struct RealToolTraceTests {
    static let tools = ["mitmproxy", "chromium", "requests-har"]
    static let briefCases = ["concurrent-403s", "rate-limit-429", "expired-token-refresh", "inactive-user-at-startup"]

    /// Every capture the scripts made, as `tool/case.har`.
    static let captures: [String] = tools.flatMap { tool in
        let folder = TraceImportTests.traces.appendingPathComponent(tool)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".har") }.sorted().map { "\(tool)/\($0)" }
    }

    @Test func everyToolHasTheBriefCases() {
        for tool in Self.tools {
            for name in Self.briefCases {
                #expect(Self.captures.contains("\(tool)/\(name).har"), "missing \(tool)/\(name).har")
            }
        }
    }

    @Test(arguments: captures)
    func eachCaptureImportsToAScenarioTheLoaderTakes(_ path: String) throws {
        let driver = ScenarioSuiteTests.driver
        let log = TraceRedactor().redact(try TraceImportTests.read(path)).log
        let imported = try TraceImporter(spec: driver.traceImport).importScenario(
            from: log, file: path, actions: driver.actions, givenKeys: driver.givenKeys)
        let loaded = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
            .load(data: Data(imported.text.utf8), file: path, id: path)
        #expect((try? loaded.get()) != nil)
        #expect(imported.summary.steps > 0)
    }

    @Test(arguments: tools.flatMap { tool in briefCases.map { "\(tool)/\($0).har" } })
    func eachBriefCaseReplaysAsImported(_ path: String) async throws {
        let (_, result) = try await TraceImportTests.importAndRun(path)
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test func aFullPageExportLeavesThePageOutAndFindsTheAppStart() throws {
        let driver = ScenarioSuiteTests.driver
        let log = try TraceImportTests.read("chromium/inactive-user-at-startup.har")
        #expect(log.entries.first?.resourceType == "document")
        let imported = try TraceImporter(spec: driver.traceImport).makeScenario(from: TraceRedactor().redact(log).log, file: "t")
        #expect(imported.summary.droppedDocuments == 1)
        #expect(imported.scenario["steps"]?.arrayValue?.first?["do"] == "bootstrap")
    }

    @Test func aFollowedRedirectIsOptionalAndUncounted() throws {
        let driver = ScenarioSuiteTests.driver
        for tool in ["chromium", "requests-har"] {
            let log = TraceRedactor().redact(try TraceImportTests.read("\(tool)/redirected-user.har")).log
            let scenario = try TraceImporter(spec: driver.traceImport).makeScenario(from: log, file: "t").scenario
            let followed = scenario["exchanges"]?.arrayValue?.first { $0["request"]?["path"] == "/users/me" }
            #expect(followed?["optional"] == true, "\(tool)")
            #expect(scenario["expect"]?["requests"]?["total"] == nil, "\(tool)")
        }
    }

    @Test func requestsHARConcurrentCallsOverlapAgain() throws {
        // requests-har writes when each answer came and seconds: read right, the ten calls overlap.
        let driver = ScenarioSuiteTests.driver
        let log = TraceRedactor().redact(try TraceImportTests.read("requests-har/concurrent-403s.har")).log
        #expect(log.entries.allSatisfy { $0.time > 100 })
        let scenario = try TraceImporter(spec: driver.traceImport).makeScenario(from: log, file: "t").scenario
        #expect(scenario["steps"]?.arrayValue?.first?["parallel"] == 10)
    }
}
