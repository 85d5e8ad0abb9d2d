import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Schedule exploration finds races the first-in-first-out order hides, and replays them exactly.
@Suite struct ExplorationTests {
    static let races: [(String, Expectations)] = [
        ("blockedTwice", Expectations(alerts: ["Account Blocked"])),
        ("expiredTwice", Expectations(state: ["refreshes": 1])),
    ]

    private func scenario(_ action: String, _ expect: Expectations) -> Scenario {
        Build.scenario(steps: [Build.step(.perform(Build.call(action), parallel: 1, expect: .ok))], expect: expect)
    }

    private func explore(_ scenario: Scenario, _ mode: RunPlan.Mode) async -> ScenarioResult {
        await ScenarioRunner(driver: RacyDriver(), plan: RunPlan(mode: mode)).run(scenario)
    }

    @Test(arguments: 0..<races.count) func theDefaultOrderHidesTheRace(race: Int) async {
        let (action, expect) = Self.races[race]
        let result = await ScenarioRunner(driver: RacyDriver()).run(scenario(action, expect))
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test(arguments: 0..<races.count) func aHundredSchedulesCatchIt(race: Int) async throws {
        let (action, expect) = Self.races[race]
        let result = await explore(scenario(action, expect), .explored(schedules: 100, seed: 7))
        #expect(result.status == .failed)
        let note = try #require(result.steps.first?.assertions.first?.message)
        #expect(note.contains("--replay-schedule 7:"), "\(note)")

        // The printed schedule fails again, the same way, every time.
        let index = try #require(Int(note.split(separator: ":").last?.prefix { $0.isNumber } ?? ""))
        let replayed = await explore(scenario(action, expect), .replay(JobSchedule(seed: 7, index: index)))
        #expect(replayed.status == .failed)
        let replayNote = try #require(replayed.steps.first?.assertions.first?.message)
        #expect(replayNote.contains("not under the first-in-first-out order"), "\(replayNote)")
        for _ in 0..<5 {
            let again = await explore(scenario(action, expect), .replay(JobSchedule(seed: 7, index: index)))
            #expect(again.transcript == replayed.transcript)
            #expect(again.failures.map(\.message) == replayed.failures.map(\.message))
        }
    }

    /// Where the run was started from decides how a failure says to replay it (a test bundle has
    /// no command line).
    @Test func aFailureGivesTheReplayAdviceItWasGiven() async throws {
        let (action, expect) = Self.races[0]
        var runner = ScenarioRunner(driver: RacyDriver(), plan: RunPlan(mode: .explored(schedules: 100, seed: 7)))
        runner.replayAdvice = { "REPLAY=\($0)" }
        let result = await runner.run(scenario(action, expect))
        let note = try #require(result.steps.first?.assertions.first?.message)
        #expect(note.contains("replay it with REPLAY=7:"), "\(note)")
        #expect(!note.contains("--replay-schedule"), "\(note)")
    }

    /// A replayed schedule of a scenario that fails in the first-in-first-out order as well says so.
    @Test func aReplayOfAScenarioThatAlwaysFailsSaysTheDefaultOrderFailsToo() async throws {
        let failing = Build.scenario(
            steps: [Build.step(.perform(Build.call("blockedTwice"), parallel: 1, expect: .ok))], expect: Expectations(alerts: []))
        let replayed = await explore(failing, .replay(JobSchedule(seed: 7, index: 3)))
        #expect(replayed.status == .failed)
        let note = try #require(replayed.steps.first?.assertions.first?.message)
        #expect(note.contains("failed under schedule 3 (seed 7), as under the first-in-first-out order"), "\(note)")
    }

    @Test func aSchedulePrintsAndParsesTheSameWay() {
        let schedule = JobSchedule(seed: 42, index: 17)
        #expect(JobSchedule(parsing: schedule.description) == schedule)
        #expect(JobSchedule(parsing: "42") == nil)
        #expect(JobSchedule(parsing: "x:1") == nil)
        #expect(JobSchedule(parsing: "1:-2") == nil)
    }
}
