import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioShrinking

/// A race only an explored schedule shows shrinks with its schedule: the seeded schedule is
/// written down as its departures from first in, first out, which replay it exactly, and the
/// shrink keeps the fewest that still fail, counted in the steps of the result.
@Suite struct ShrinkScheduleTests {
    static let race = """
        {
          "name": "Two 403 handlers race",
          "description": "The guard checks, awaits, then sets: a second handler in between shows a second alert.",
          "steps": [
            { "do": "expiredTwice" },
            { "do": "expiredTwice" },
            { "do": "blockedTwice" },
            { "do": "expiredTwice" }
          ],
          "expect": { "alerts": ["Account Blocked"] }
        }
        """

    /// The first schedule of seed 7 that fails the race, as `--schedules 100 --seed 7` finds it.
    static func failingSchedule(_ scenario: Scenario) async throws -> JobSchedule {
        let explored = await ScenarioRunner(driver: RacyDriver(), plan: RunPlan(mode: .explored(schedules: 100, seed: 7))).run(scenario)
        try #require(explored.status == .failed)
        let note = try #require(explored.steps.first?.assertions.first?.message)
        let text = try #require(note.components(separatedBy: "--replay-schedule ").last)
        return try #require(JobSchedule(parsing: text))
    }

    static func load(_ fixture: ShrinkFixture) throws -> Scenario {
        try ScenarioLoader(actions: RacyDriver().actions, givenKeys: []).load(contentsOf: fixture.input.path, id: "input").get()
    }

    @Test func aSeededScheduleWrittenDownReplaysTheSameRun() async throws {
        let fixture = try ShrinkFixture(Self.race, driver: RacyDriver())
        defer { fixture.remove() }
        let scenario = try Self.load(fixture)
        let seeded = try await Self.failingSchedule(scenario)
        let replayed = await ScenarioRunner(driver: RacyDriver(), plan: RunPlan(mode: .replay(seeded))).run(scenario)
        let written = try #require(replayed.scheduleTaken)
        #expect(!written.isEmpty)
        // Its text is what --replay-schedule reads back.
        let explicit = try #require(JobSchedule(parsing: JobSchedule(written).description))
        #expect(explicit.explicit == written)
        for _ in 0..<3 {
            let again = await ScenarioRunner(driver: RacyDriver(), plan: RunPlan(mode: .replay(explicit))).run(scenario)
            #expect(again.transcript == replayed.transcript)
            #expect(
                again.failures.filter { !$0.isScheduleNote }.map(\.message)
                    == replayed.failures.filter { !$0.isScheduleNote }.map(\.message))
            #expect(again.scheduleTaken == written)
        }
    }

    @Test func aRaceShrinksWithTheFewestDeparturesThatStillFail() async throws {
        let fixture = try ShrinkFixture(Self.race, driver: RacyDriver())
        defer { fixture.remove() }
        let scenario = try Self.load(fixture)
        let seeded = try await Self.failingSchedule(scenario)
        let recorded = try #require(
            await ScenarioRunner(driver: RacyDriver(), plan: RunPlan(mode: .replay(seeded))).run(scenario).scheduleTaken)

        var settings = ShrinkSettings()
        settings.schedule = seeded
        let report = try #require(await fixture.shrunk(settings))
        let schedule = try #require(report.schedule, "the race needs a schedule")
        let departures = try #require(schedule.explicit).departures
        // This race needs the slow caller to pass the fast one three times: 18 departures went.
        #expect(departures.count <= 3, "\(schedule)")
        #expect(departures.count < recorded.departures.count, "\(schedule) from \(recorded)")
        #expect(report.to.steps == 1, "\(report.summary)")
        let steps = try fixture.result()["steps"]?.arrayValue ?? []
        #expect(steps.first?["do"] == "blockedTwice")
        #expect((try fixture.result()["description"]?.stringValue ?? "").contains("--replay-schedule \(schedule)"))

        // The printed schedule fails the result, every time; first in, first out does not.
        for _ in 0..<3 {
            let replayed = try await fixture.run(schedule: schedule)
            #expect(replayed.failures.map(\.label) == ["alerts"], "\(replayed.failures.map(\.summary))")
        }
        #expect(try await fixture.run().status == .passed)
    }

    @Test func aScheduleThatNoLongerFailsIsRefused() async throws {
        let fixture = try ShrinkFixture(Self.race, driver: RacyDriver())
        defer { fixture.remove() }
        var settings = ShrinkSettings()
        // A seeded schedule under which it passes is refused, naming the schedule.
        let scenario = try Self.load(fixture)
        var passing: JobSchedule?
        for index in 1...20 where passing == nil {
            let schedule = JobSchedule(seed: 3, index: index)
            if await ScenarioRunner(driver: RacyDriver(), plan: RunPlan(mode: .replay(schedule))).run(scenario).status == .passed {
                passing = schedule
            }
        }
        let found: JobSchedule = try #require(passing)
        settings.schedule = found
        guard case .refused(let message) = await fixture.shrink(settings) else {
            Issue.record("a passing schedule is refused")
            return
        }
        #expect(message.contains("no longer fails"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: fixture.output))
    }

    @Test func anExplicitSchedulePrintsAndParsesTheSameWay() throws {
        let text = "step0.pick3=1,step2.pick12=0,step2.late1=250ms"
        let schedule = try #require(JobSchedule(parsing: text))
        #expect(schedule.description == text)
        #expect(!schedule.isFIFO)
        #expect(JobSchedule(parsing: "fifo")?.isFIFO == true)
        for bad in [
            "pick3=1", "step1.pick0=1", "step1.pick2=-1", "step1.late1=0ms", "step1.late1=5", "step1.pick2=1,step1.pick2=0",
            "step-1.pick1=1", "",
        ] {
            #expect(JobSchedule(parsing: bad) == nil, "\(bad)")
        }
    }
}
