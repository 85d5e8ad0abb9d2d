import Foundation
import Testing

/// The HTML report opened in a real browser: it loads with no console message at all (no
/// script error, no blocked or missing resource: the page needs nothing outside itself) and the
/// browser finds every scenario and its diagram. Runs where Chromium is installed, and always on CI.
@Suite(.enabled(if: HeadlessBrowser.url != nil || ProcessInfo.processInfo.environment["CI"] != nil, "Chromium is not installed"))
struct HTMLReportBrowserTests {
    @Test func theReportLoadsCleanlyInChromium() throws {
        let folder = try TemporaryFolder()
        let fixtures = RepositoryPaths.root.appendingPathComponent("Tests/Fixtures/failing-scenarios")
        let scenarios = RepositoryPaths.root.appendingPathComponent("Scenarios/blocked-user")
        let run = try ScenarioBinary.run(
            [
                "run", scenarios.path, fixtures.appendingPathComponent("unscripted-request.json").path, "--html", "Reports/run.html",
                "--jobs", "1",
            ],
            in: folder.url)
        #expect(run.status == 1, "\(run.output)")
        let page = folder.url.appendingPathComponent("Reports/run.html")
        let load = try HeadlessBrowser.load(page)
        #expect(load.consoleMessages.isEmpty, "\(load.consoleMessages)")
        let scenarioCount = try FileManager.default.contentsOfDirectory(atPath: scenarios.path).filter { $0.hasSuffix(".json") }.count + 1
        #expect(load.document.components(separatedBy: "<section ").count - 1 == scenarioCount)
        #expect(load.document.components(separatedBy: "<svg ").count - 1 == scenarioCount)
        // The unscripted request is the cause, and heads its scenario.
        #expect(load.document.contains("Cause: step"))
    }
}
