import Foundation
import ScenarioKit
import ScenarioTesting
import Testing

/// `ScenarioFile.check` turns every way a scenario can go wrong into a test issue: a failed
/// check, a run that could not finish, a file that does not load.
@Suite struct ScenarioFileRuleTests {
    private static let fixtures = ScenarioSuiteTests.root + "/../Tests/Fixtures/failing-scenarios/"

    @Test func aScenarioThatCannotFinishIsAnIssue() async {
        await withKnownIssue {
            await ScenarioFile(id: "stuck", path: Self.fixtures + "stuck.json").check(with: ScenarioSuiteTests.driver)
        } matching: { issue in
            "\(issue.kind)".contains("stuck: 'request' can never finish")
        }
    }

    @Test func aFileThatDoesNotLoadIsAnIssue() async throws {
        let text = try String(contentsOfFile: Self.fixtures + "wrong-state.json", encoding: .utf8)
            .replacingOccurrences(of: #""steps""#, with: #""stpes""#)
        #expect(text.contains("stpes"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unloadable-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        await withKnownIssue {
            await ScenarioFile(id: "unloadable", path: path).check(with: ScenarioSuiteTests.driver)
        } matching: { issue in
            "\(issue.kind)".contains("stpes")
        }
    }
}
