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

    @Test func theEnvironmentReplacesHowATraitRunsAndWhereItReports() throws {
        let trait = ScenarioSettings(schedules: 100, seed: 3, reports: "Reports")
        let (replay, problems) = ScenarioSettings.environment([
            "SCENARIO_REPLAY_SCHEDULE": "7:42", "SCENARIO_REPORTS": ".build/reports",
        ])
        #expect(problems.isEmpty)
        let merged = trait.overridden(by: replay)
        #expect(try merged.mode().get() == .explored(.replay(JobSchedule(seed: 7, index: 42))))
        #expect(merged.reports == ".build/reports")

        let reportsOnly = trait.overridden(by: ScenarioSettings.environment(["SCENARIO_REPORTS": "elsewhere"]).settings)
        #expect(try reportsOnly.mode().get() == .explored(.schedules(count: 100, seed: 3)))
        #expect(reportsOnly.reports == "elsewhere")
        // A seed alone re-seeds the trait's schedules; with nothing to explore it is still refused.
        let reseeded = trait.overridden(by: ScenarioSettings.environment(["SCENARIO_SEED": "2"]).settings)
        #expect(try reseeded.mode().get() == .explored(.schedules(count: 100, seed: 2)))
        let seedForNothing = ScenarioSettings(repeat: 5).overridden(by: ScenarioSettings(seed: 2))
        #expect(throws: ScenarioSettings.Problem.self) { try seedForNothing.mode().get() }
        #expect(try ScenarioSettings(repeat: 5).mode().get() == .repeated(5))
        #expect(try ScenarioSettings().mode().get() == .once)
    }

    @Test(arguments: [
        (ScenarioSettings(repeat: 2, schedules: 3), "settings 'schedules' and 'repeat' cannot be used together"),
        (ScenarioSettings(schedules: 3, replay: "1:2"), "settings 'replay' and 'schedules' cannot be used together"),
        (ScenarioSettings(seed: 4), "seed goes with schedules"),
        (ScenarioSettings(replay: "42"), "replay '42': expected SEED:INDEX as a failure printed it, such as 7:42"),
        (ScenarioSettings(schedules: 0), "schedules 0: expected at least 1"),
    ])
    func settingsThatCannotGoTogetherSaySo(settings: ScenarioSettings, message: String) {
        guard case .failure(let problem) = settings.mode() else {
            Issue.record("\(settings) was accepted")
            return
        }
        #expect(problem.description == message)
    }

    @Test func anEnvironmentValueThatIsNotANumberIsNamed() {
        let (_, problems) = ScenarioSettings.environment(["SCENARIO_SCHEDULES": "many", "SCENARIO_SEED": "-1", "SCENARIO_REPEAT": "0"])
        #expect(
            problems.map(\.description).sorted() == [
                "SCENARIO_REPEAT=0: expected a whole number of at least 1",
                "SCENARIO_SCHEDULES=many: expected a whole number of at least 1",
                "SCENARIO_SEED=-1: expected a whole number, such as 7",
            ])
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
            await file.run(with: ScenarioSuiteTests.driver, options: RunOptions(), settings: settings, environment: [:], label: "t")
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

    /// A case whose settings are unusable fails, and the report says so instead of leaving it out.
    @Test func unusableSettingsFailTheCaseAndReachTheReport() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-reports-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try #require(Self.corpus.first)
        let outcome = await file.run(
            with: ScenarioSuiteTests.driver, options: RunOptions(), settings: ScenarioSettings(reports: folder),
            environment: ["SCENARIO_SCHEDULES": "many"], label: nil)
        #expect(outcome.result == nil)
        #expect(outcome.problems.map(\.message) == ["SCENARIO_SCHEDULES=many: expected a whole number of at least 1"])
        let recorded = ReportFolder(path: folder).results()
        #expect(recorded.map(\.status) == [.error])
        #expect(recorded.first?.errorMessage?.contains("SCENARIO_SCHEDULES=many") == true)
    }
}
