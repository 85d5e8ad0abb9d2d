import Foundation
import Testing

@testable import ScenarioKit

/// What every report agrees on: a run succeeds only when nothing failed and nothing errored.
@Suite struct ReportRuleTests {
    private func result(_ id: String, _ status: ScenarioResult.Status) -> ScenarioResult {
        ScenarioResult(id: id, name: id, file: "\(id).json", status: status, errorMessage: status == .error ? "stuck" : nil)
    }

    @Test func aRunWithAnErroredScenarioDidNotSucceed() {
        let run = RunResult(scenarios: [result("a", .passed), result("b", .error)], wallTime: .zero)
        #expect(!run.succeeded)
        #expect(!run.tally.succeeded)
        #expect(JSONReport.value(run)["succeeded"] == .bool(false))
        #expect(JSONReport.value(run)["summary"]?["errors"] == .number(1))
    }

    @Test func aRunOfPassedAndSkippedScenariosSucceeded() {
        let run = RunResult(scenarios: [result("a", .passed), result("b", .skipped)], wallTime: .zero)
        #expect(run.tally.succeeded)
        #expect(JSONReport.value(run)["succeeded"] == .bool(true))
        #expect(JSONReport.value(run)["summary"]?["passed"] == .number(1))
        #expect(JSONReport.value(run)["summary"]?["skipped"] == .number(1))
    }

    @Test func aRunWithAFailedScenarioDidNotSucceed() {
        let run = RunResult(scenarios: [result("a", .failed)], wallTime: .zero)
        #expect(!run.tally.succeeded)
        #expect(JSONReport.value(run)["succeeded"] == .bool(false))
    }
}
