import Foundation
import ScenarioKit
import SessionKitDriver
import Testing

@testable import ScenarioTesting

/// `ScenarioTesting` runs a scenario as `scenario run` does: repeated, explored or replaying one
/// schedule, as a trait or the environment says, and writes the same reports.
@Suite struct ScenarioSettingsTests {
    /// A developer's own `SCENARIO_*` settings would change what the tests that read the
    /// process environment check: they run only where none is set.
    static let environmentIsClear = !ProcessInfo.processInfo.environment.keys.contains { $0.hasPrefix("SCENARIO_") }

    static let corpus = ScenarioFile.all(in: "Scenarios")

    /// The plan a test bundle's settings give, the environment on top of the trait.
    private func plan(_ trait: ScenarioSettings, _ environment: [String: String]) -> (Result<RunPlan.Mode, RunPlan.Problem>, String?) {
        let (plan, reports) = trait.plan(RunPlan(), environment: environment)
        return (plan.map(\.mode), reports)
    }

    @Test func theEnvironmentReplacesATraitsSettingsAndWhereItReports() throws {
        let trait = ScenarioSettings(schedules: 100, seed: 3, reports: "Reports")
        // A replay replays one of the trait's schedules: it replaces their count and seed.
        let (replay, reports) = plan(trait, ["SCENARIO_REPLAY_SCHEDULE": "7:42", "SCENARIO_REPORTS": ".build/reports"])
        #expect(try replay.get() == .replay(JobSchedule(seed: 7, index: 42)))
        #expect(reports == ".build/reports")

        let (same, elsewhere) = plan(trait, ["SCENARIO_REPORTS": "elsewhere"])
        #expect(try same.get() == .explored(schedules: 100, seed: 3))
        #expect(elsewhere == "elsewhere")
        // A seed alone re-seeds the trait's schedules; more schedules replace the trait's count.
        #expect(try plan(trait, ["SCENARIO_SEED": "2"]).0.get() == .explored(schedules: 100, seed: 2))
        #expect(try plan(trait, ["SCENARIO_SCHEDULES": "7"]).0.get() == .explored(schedules: 7, seed: 3))
        #expect(try plan(ScenarioSettings(repeat: 5), [:]).0.get() == .repeated(5))
        #expect(try plan(ScenarioSettings(), [:]).0.get() == .once)
        #expect(plan(ScenarioSettings(), [:]).1 == nil)
    }

    /// What the command line refuses, the environment over a trait refuses too, in its words:
    /// a repeat from the environment does not silently replace a trait's schedules.
    @Test(arguments: [
        (ScenarioSettings(schedules: 100), ["SCENARIO_REPEAT": "20"], "'schedules: 100' and 'SCENARIO_REPEAT=20' cannot be used together"),
        (ScenarioSettings(repeat: 3), ["SCENARIO_SCHEDULES": "50"], "'SCENARIO_SCHEDULES=50' and 'repeat: 3' cannot be used together"),
        (
            ScenarioSettings(repeat: 3), ["SCENARIO_REPLAY_SCHEDULE": "1:2"],
            "'SCENARIO_REPLAY_SCHEDULE=1:2' and 'repeat: 3' cannot be used together"
        ),
        (ScenarioSettings(repeat: 2, schedules: 3), [:], "'schedules: 3' and 'repeat: 2' cannot be used together"),
        (ScenarioSettings(schedules: 3, replay: "1:2"), [:], #"'replay: "1:2"' and 'schedules: 3' cannot be used together"#),
        (ScenarioSettings(repeat: 5), ["SCENARIO_SEED": "2"], "SCENARIO_SEED=2 goes with schedules"),
        (
            ScenarioSettings(replay: "42"), [:],
            "invalid value '42' for replay: expected SEED:INDEX as a failure printed it, such as 7:42, or the schedule a shrink printed"
        ),
        (ScenarioSettings(schedules: 0), [:], "invalid value '0' for schedules: expected a whole number of at least 1"),
        (
            ScenarioSettings(), ["SCENARIO_SCHEDULES": "many"],
            "invalid value 'many' for SCENARIO_SCHEDULES: expected a whole number of at least 1"
        ),
        (ScenarioSettings(), ["SCENARIO_REPEAT": "0"], "invalid value '0' for SCENARIO_REPEAT: expected a whole number of at least 1"),
        (
            ScenarioSettings(schedules: 2), ["SCENARIO_SEED": "-1"],
            "invalid value '-1' for SCENARIO_SEED: expected a whole number, such as 7"
        ),
    ])
    func settingsThatCannotGoTogetherSaySo(trait: ScenarioSettings, environment: [String: String], message: String) {
        guard case .failure(let problem) = plan(trait, environment).0 else {
            Issue.record("\(trait) with \(environment) was accepted")
            return
        }
        #expect(problem.description == message)
    }

    @Test func aFailedScheduleSaysHowToReplayItFromATest() {
        let advice = ScenarioSettings.replayAdvice(JobSchedule(seed: 7, index: 42))
        #expect(advice == #"SCENARIO_REPLAY_SCHEDULE=7:42 in the environment (or the .scenarios(replay: "7:42") trait)"#)
    }

    @Test(.scenarios(schedules: 4, seed: 3), .enabled(if: environmentIsClear)) func aTestsTraitExploresItsScenario() async throws {
        let file = try #require(Self.corpus.first)
        let result = await file.check(with: ScenarioSuiteTests.driver)
        #expect(result?.status == .passed)
        #expect(result?.schedules == 4)
    }

    @Test(.enabled(if: environmentIsClear)) func withoutSettingsAScenarioRunsOnce() async throws {
        let file = try #require(Self.corpus.first)
        let result = await file.check(with: ScenarioSuiteTests.driver)
        #expect(result?.schedules == 1)
    }

    @Suite(.scenarios(schedules: 3)) struct ASuitesTrait {
        @Test(.enabled(if: ScenarioSettingsTests.environmentIsClear)) func reachesItsTests() async throws {
            let file = try #require(ScenarioSettingsTests.corpus.first)
            let result = await file.check(with: ScenarioSuiteTests.driver)
            #expect(result?.schedules == 3)
        }
    }

    /// Cases that run at once write one report: a test case per scenario, failures included.
    @Test func parallelCasesWriteOneReportWithATestcaseEach() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-reports-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let settings = ScenarioSettings(schedules: 2, reports: folder)
        let files = Array(Self.corpus.prefix(6))
        #expect(files.count == 6)
        // The environment left out, so that a developer's own SCENARIO_* settings change nothing here.
        func check(_ file: ScenarioFile) async -> (result: ScenarioResult?, problems: [ScenarioFile.Problem]) {
            await file.run(with: ScenarioSuiteTests.driver, plan: RunPlan(), settings: settings, environment: [:], label: "t")
        }
        await withTaskGroup(of: Void.self) { group in
            for file in files {
                group.addTask { #expect(await check(file).problems.isEmpty) }
            }
        }
        let failing = ScenarioFile(
            id: "wrong-state", path: ScenarioSuiteTests.root + "/../Tests/Fixtures/failing-scenarios/wrong-state.json")
        #expect(await check(failing).problems.first?.title.contains("state.auth") == true)

        let results = ReportFolder(path: folder).results()
        #expect(results.map(\.id) == (files.map(\.id) + ["wrong-state"]).sorted())
        #expect(results.filter { $0.status == .failed }.map(\.id) == ["wrong-state"])
        #expect(results.filter { $0.status == .passed }.allSatisfy { $0.schedules == 2 })
        let junit = try String(contentsOfFile: folder + "/junit.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == 7)
        #expect(junit.contains("wrong-state.json:"), "the failure says where")
    }

    /// `.scenarios(shrink:)` (or `SCENARIO_SHRINK`, which wins) writes a shrunk copy of a failing
    /// case's scenario into that folder, as `scenario run --shrink` does; a passing case gets none.
    @Test func aFailingCaseIsShrunkWhereTheSettingsSay() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-shrunk-\(UUID().uuidString)").path
        let other = folder + "-environment"
        defer { for path in [folder, other] { try? FileManager.default.removeItem(atPath: path) } }
        let failing = ScenarioFile(
            id: "wrong-state", path: ScenarioSuiteTests.root + "/../Tests/Fixtures/failing-scenarios/wrong-state.json")
        let outcome = await failing.run(
            with: ScenarioSuiteTests.driver, plan: RunPlan(), settings: ScenarioSettings(shrink: folder), environment: [:], label: nil)
        #expect(outcome.result?.status == .failed)
        #expect(outcome.result?.shrunkCopy == folder + "/wrong-state.json", "\(outcome.result?.shrinkNote ?? "no note")")
        #expect(FileManager.default.fileExists(atPath: folder + "/wrong-state.json"))
        _ = await failing.run(
            with: ScenarioSuiteTests.driver, plan: RunPlan(), settings: ScenarioSettings(shrink: folder),
            environment: ["SCENARIO_SHRINK": other], label: nil)
        #expect(FileManager.default.fileExists(atPath: other + "/wrong-state.json"))
        let passing = try #require(Self.corpus.first)
        let passed = await passing.run(
            with: ScenarioSuiteTests.driver, plan: RunPlan(), settings: ScenarioSettings(shrink: folder), environment: [:], label: nil)
        #expect(passed.result?.status == .passed)
        #expect(passed.result?.shrunkCopy == nil)
    }

    /// A case whose settings are unusable fails, and the report says so instead of leaving it out.
    @Test func unusableSettingsFailTheCaseAndReachTheReport() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-reports-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try #require(Self.corpus.first)
        let outcome = await file.run(
            with: ScenarioSuiteTests.driver, plan: RunPlan(), settings: ScenarioSettings(reports: folder),
            environment: ["SCENARIO_SCHEDULES": "many"], label: nil)
        #expect(outcome.result == nil)
        #expect(
            outcome.problems.map(\.message) == [
                "settings: invalid value 'many' for SCENARIO_SCHEDULES: expected a whole number of at least 1"
            ])
        let recorded = ReportFolder(path: folder).results()
        #expect(recorded.map(\.status) == [.error])
        #expect(recorded.first?.errorMessage?.contains("'many' for SCENARIO_SCHEDULES") == true)
    }
}
