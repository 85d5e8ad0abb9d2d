import Foundation
import ScenarioKit
import ScenarioTesting
import SessionKitDriver
import Testing

/// Every scenario under `Scenarios/` is its own test case, run through the direct transport
/// and again through URLSession and the URLProtocol adapter, the way a team's own test target
/// does it with `ScenarioTesting`.
@Suite struct ScenarioSuiteTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios").path

    /// Scenario ids, found once when the suite is built.
    static let corpus: [DiscoveredScenario] = (try? ScenarioDiscovery.find([root])) ?? []

    @Test func theCorpusIsThere() {
        #expect(Self.corpus.count >= 30, "Scenarios/ holds \(Self.corpus.count) scenarios")
    }

    @Test("scenario (direct transport)", arguments: ScenarioFile.all(in: "Scenarios"))
    func direct(file: ScenarioFile) async {
        await file.check(with: Self.driver)
    }

    @Test("scenario (URLSession + URLProtocol)", arguments: ScenarioFile.all(in: "Scenarios"))
    func throughURLSession(file: ScenarioFile) async {
        await file.check(with: Self.driver, plan: RunPlan(route: .urlSession))
    }

    @Test func failuresAreRecordedAtTheScenarioFile() async {
        let path = Self.root + "/../Tests/Fixtures/failing-scenarios/wrong-state.json"
        await withKnownIssue {
            await ScenarioFile(id: "wrong-state", path: path).check(with: Self.driver)
        } matching: { issue in
            issue.sourceLocation?.fileID.hasSuffix("wrong-state.json") == true && (issue.sourceLocation?.line ?? 0) > 1
        }
    }

    /// Each issue's own line is what went wrong, not "Issue recorded", and it points at the key.
    @Test func issuesCarryWhatWentWrongAsTheirTitle() async {
        let path = Self.root + "/../Tests/Fixtures/failing-scenarios/wrong-state.json"
        await withKnownIssue {
            await ScenarioFile(id: "wrong-state", path: path).check(with: Self.driver)
        } matching: { issue in
            "\(issue.kind)".contains(#"state.auth: expected "authenticated", got "unauthenticated""#)
                && issue.comments.first?.rawValue.contains("-   \"auth\": \"authenticated\"") == true
        }
    }

    /// A request nobody scripted is the first issue, before the wrong outcome it led to.
    @Test func theCauseIsTheFirstIssue() async throws {
        let fixture = Self.root + "/../Tests/Fixtures/failing-scenarios/unscripted-request.json"
        // The step now expects success, so the 404 the unscripted request got is a symptom too.
        let text = try String(contentsOfFile: fixture, encoding: .utf8)
            .replacingOccurrences(of: #""expect": { "error": "notFound" }"#, with: #""expect": { "ok": true }"#)
        #expect(text.contains(#""ok": true"#))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cause-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let titles = TitleBox()
        await withKnownIssue {
            await ScenarioFile(id: "unscripted-request", path: path).check(with: Self.driver)
        } matching: { issue in
            titles.append("\(issue.kind)")
            return true
        }
        #expect(titles.all.first?.contains("unmatched requests: 1 request(s) matched no exchange") == true, "\(titles.all)")
        #expect(titles.all.contains { $0.contains("outcome: expected the action to succeed") }, "\(titles.all)")
    }

    @Test func aMistypedFolderIsAFailingCaseThatSaysSo() async {
        let cases = ScenarioFile.all(in: "No/Such/Folder")
        #expect(cases.map(\.id) == ["no such folder: No/Such/Folder"])
        guard let only = cases.first else { return }
        await withKnownIssue {
            await only.check(with: Self.driver)
        } matching: { issue in
            "\(issue.kind)".contains("no such folder: ") && "\(issue.kind)".hasSuffix("No/Such/Folder")
                && !"\(issue.kind)".contains("cannot read")
        }
    }

    static let driver = SessionKitDriver()

    /// Issue titles seen by a known-issue matcher.
    final class TitleBox: @unchecked Sendable {
        private let lock = NSLock()
        private var titles: [String] = []
        func append(_ title: String) { lock.withLock { titles.append(title) } }
        var all: [String] { lock.withLock { titles } }
    }

    /// Loads one scenario file for the SessionKit driver; a load failure is thrown with every issue.
    static func load(_ path: String, id: String) throws -> Scenario {
        try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(contentsOf: path, id: id).get()
    }
}

/// The same scenario gives a byte-identical transcript and result on every run.
@Suite struct DeterminismTests {
    @Test(arguments: ScenarioSuiteTests.corpus.map(\.id))
    func hundredRunsGiveOneTranscript(id: String) async throws {
        let file = try #require(ScenarioSuiteTests.corpus.first { $0.id == id })
        let scenario = try ScenarioSuiteTests.load(file.path, id: id)
        let runner = ScenarioRunner(driver: ScenarioSuiteTests.driver)
        let first = await runner.run(scenario)
        var differing = 0
        for _ in 1..<100 {
            let again = await runner.run(scenario)
            if again.transcript != first.transcript || again.status != first.status || again.virtualTime != first.virtualTime {
                differing += 1
            }
        }
        #expect(differing == 0, "\(differing) of 99 repeated runs differed from the first")
    }
}
