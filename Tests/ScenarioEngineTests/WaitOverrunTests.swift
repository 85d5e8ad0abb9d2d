import Dispatch
import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A block that waits in a loop (a poller that sleeps on a queue of its own) never gives the
/// scenario's thread back: once its waits take the step past `timeLimit` or `limits.wakes`, the
/// run ends with an error that says so, from inside the wait, and none of that code runs again.
@Suite struct WaitOverrunTests {
    struct LoopDriver: ScenarioDriver {
        let rounds = RunCounter()
        var name: String { "Loops" }
        var actions: [ActionSpec] {
            [
                ActionSpec("pollEvery30s", "a queue's block that loops for good: count a round, Thread.sleep 30 s"),
                ActionSpec("pollEveryMillisecond", "a queue's block that loops for good: count a round, Thread.sleep 1 ms"),
                ActionSpec("ping", "answers at once"),
            ]
        }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession { LoopSession(rounds: rounds) }
    }

    struct LoopSession: ActionOnlySession {
        let rounds: RunCounter

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            let pause: TimeInterval
            switch action {
            case "pollEvery30s": pause = 30
            case "pollEveryMillisecond": pause = 0.001
            case "ping": return .value(["pong": true])
            default: return .error(["code": "unknownAction"])
            }
            let rounds = self.rounds
            DispatchQueue(label: "loops.poller").async {
                while true {
                    _ = rounds.next()
                    Thread.sleep(forTimeInterval: pause)
                }
            }
            return .value(["started": true])
        }
    }

    private func scenario(_ action: String, timeLimit: Duration = Scenario.defaultTimeLimit, wakes: Int? = nil) -> Scenario {
        var scenario = Build.scenario(
            steps: [Build.step(.perform(Build.call(action), parallel: 1, expect: .value(["started": true])))], timeLimit: timeLimit)
        if let wakes { scenario.limits.wakes = wakes }
        return scenario
    }

    #if os(Linux)
        /// Rounds at 0 s, 30 s, … 3600 s: 121, and the sleep that would end past the hour ends the run.
        @Test func aLoopThatSleepsPastTheTimeLimitEndsItsRun() async {
            #expect(DispatchCapture.hasVirtualWaits)
            let driver = LoopDriver()
            let result = await ScenarioRunner(driver: driver).run(scenario("pollEvery30s", timeLimit: .seconds(3600)))
            #expect(result.status == .error)
            #expect(result.explanation.contains("a block on queue 'loops.poller' waited on a sleep"), "\(result.explanation)")
            #expect(result.explanation.contains("past this step's time limit"), "\(result.explanation)")
            #expect(result.explanation.contains("raise timeLimit"), "\(result.explanation)")
            #expect(driver.rounds.value == 121)

            // The next run in this process goes on, and the loop never runs again.
            let next = await Build.runOne("ping", expecting: ["pong": true], with: driver)
            #expect(next.status == .passed, "\(next.explanation)")
            #expect(driver.rounds.value == 121)
        }

        /// A loop of short sleeps reaches the step's wake limit first: 1,000 moves of the clock,
        /// and the run ends on the 1,001st round's sleep.
        @Test func aLoopOfShortSleepsEndsAtTheWakeLimit() async {
            let driver = LoopDriver()
            let result = await ScenarioRunner(driver: driver).run(scenario("pollEveryMillisecond", wakes: 1000))
            #expect(result.status == .error)
            #expect(result.explanation.contains("through 1000 wakes of the clock in this step"), "\(result.explanation)")
            #expect(result.explanation.contains("raise limits.wakes"), "\(result.explanation)")
            #expect(driver.rounds.value == 1001)
        }
    #endif
}
