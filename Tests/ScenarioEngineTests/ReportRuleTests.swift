import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

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

/// The console report: errors count as failures in the summary, and an errored scenario is
/// listed among the failures with what went wrong.
@Suite struct ConsoleReportRuleTests {
    private func result(_ id: String, _ status: ScenarioResult.Status) -> ScenarioResult {
        ScenarioResult(id: id, name: id, file: "\(id).json", status: status, errorMessage: status == .error ? "stuck on purpose" : nil)
    }

    @Test func errorsCountAsFailedInTheSummary() {
        var tally = RunTally()
        tally.add(.passed)
        tally.add(.error)
        let summary = ConsoleReport().summary(tally)
        #expect(summary.contains("Summary: 1 passed, 1 failed, 0 skipped"), "\(summary)")
        #expect(summary.contains("(0 failed, 1 error)"), "\(summary)")
    }

    @Test func anErroredScenarioIsListedAmongTheFailures() {
        let run = RunResult(scenarios: [result("fine", .passed), result("broken", .error)], wallTime: .zero)
        let section = ConsoleReport().failureSection(run)
        #expect(section.contains("broken"), "\(section)")
        #expect(section.contains("[error]"), "\(section)")
        #expect(section.contains("stuck on purpose"), "\(section)")
        #expect(!section.contains("fine"), "\(section)")
    }
}

/// The schedule that failed leads a result found by exploration, before its causes and symptoms.
@Suite struct ScheduleNoteRuleTests {
    @Test func theScheduleNoteComesBeforeCausesAndSymptoms() {
        let note = AssertionResult(label: AssertionResult.schedule, passed: false, message: "failed under schedule 3 of 100 (seed 1)")
        let cause = AssertionResult(
            label: AssertionResult.unmatchedRequests, passed: false, message: "#4 GET /x", subjects: [FailureSubject(.unmatched, "GET /x")])
        let symptom = AssertionResult(label: "alerts", passed: false, message: "expected 1 element(s), got 2")
        let result = ScenarioResult(
            id: "a", name: "a", file: "a.json", status: .failed,
            steps: [
                StepResult(index: 0, label: "schedule 1:3", location: nil, assertions: [note]),
                StepResult(index: 1, label: "do x", location: nil, assertions: [symptom]),
                StepResult(index: 2, label: "expect", location: nil, assertions: [cause]),
            ])
        #expect(result.failures.map(\.label) == [AssertionResult.schedule, AssertionResult.unmatchedRequests, "alerts"])
        let lines = ResultText.failureLines(result)
        #expect(lines.first == "schedule: failed under schedule 3 of 100 (seed 1)", "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("cause: unmatched requests") == true, "\(lines)")
        #expect(lines.filter { $0.contains("schedule 3") }.count == 1, "\(lines)")
        #expect(ResultText.headline(result).hasPrefix("schedule: failed under schedule 3"))
    }
}
