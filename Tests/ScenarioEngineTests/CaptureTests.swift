import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// The scenario owns every Swift job of a stack written without the engine in mind.
@Suite struct CaptureTests {
    static let routes = RunPlan.Route.allCases

    private func run(_ scenario: Scenario, route: RunPlan.Route) async -> ScenarioResult {
        await ScenarioRunner(driver: AppStyleDriver(), plan: RunPlan(route: route)).run(scenario)
    }

    /// Five concurrent 403s through the app's own URLSession, each hopping to the main actor.
    private var burst: Scenario {
        Build.scenario(
            exchanges: [Build.exchange("feed-403", path: "/feed", status: 403, times: 5, release: .whenPending(5))],
            steps: [Build.step(.perform(Build.call("get", ["path": "/feed"]), parallel: 5, expect: .value(["status": 403])))],
            expect: Expectations(state: ["screen": "login"], alerts: ["Account Blocked"], timeline: ["unauthenticated"]))
    }

    @Test(arguments: routes) func mainActorStateAndItsOwnSessionGiveOneTranscript(route: RunPlan.Route) async {
        await expectOneTranscript(burst, route: route, runs: 100)
    }

    /// Runs a scenario `runs` times: every run passes and gives the first run's transcript.
    private func expectOneTranscript(_ scenario: Scenario, route: RunPlan.Route, runs: Int) async {
        let first = await run(scenario, route: route)
        #expect(first.status == .passed, "\(first.explanation)")
        for _ in 1..<runs {
            let again = await run(scenario, route: route)
            #expect(again.status == .passed, "\(again.explanation)")
            #expect(again.transcript == first.transcript)
        }
    }

    @Test func aStackThatAlertsTwiceIsCaught() async {
        var scenario = burst
        scenario.expect.alerts = ["Account Blocked", "Account Blocked"]
        let result = await run(scenario, route: .direct)
        #expect(result.status == .failed)
    }

    @Test(arguments: routes) func taskSleepRunsOnVirtualTime(route: RunPlan.Route) async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("later", path: "/later")],
            steps: [Build.step(.perform(Build.call("napThenGet", ["path": "/later"]), parallel: 1, expect: .value(["status": 200])))])
        let result = await run(scenario, route: route)
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(result.virtualTime == .seconds(3600), "\(result.transcript)")
    }

    /// A deadline read some time after it was computed still lands on the delay the code wrote.
    @Test(
        arguments: [
            (999_700_000, 1_002_100_000, 1_000_000_000), (1_499_700_000, 1_502_100_000, 1_500_000_000),
            (1_233_700_000, 1_236_100_000, 1_234_000_000), (89_999_000_000, 90_004_000_000, 90_000_000_000),
            (0, 0, 0), (-5_000_000, 2_000_000, 0), (4_999_999, 5_000_000, 5_000_000), (1_234_567, 1_234_567, 1_234_567),
        ] as [(Int64, Int64, Int64)])
    func deadlinesBecomeTheRoundestDelayTheyCanMean(lower: Int64, upper: Int64, expected: Int64) {
        #expect(Capture.roundest(from: .nanoseconds(lower), to: .nanoseconds(upper)) == .nanoseconds(expected))
    }

    @Test func aDeadlineYearsAwayDoesNotOverflow() {
        let years = Duration.seconds(Int64.max / 4)
        #expect(Capture.roundest(from: years, to: years + .seconds(1)) > .seconds(1_000_000_000))
    }

    @Test func taskSleepInsideAnActorRunsOnVirtualTime() async {
        let scenario = Build.scenario(
            steps: [Build.step(.perform(Build.call("napInActor"), parallel: 1, expect: .value(["count": 3])))])
        let result = await run(scenario, route: .direct)
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(result.virtualTime == .seconds(90))
    }

    @Test(arguments: routes) func completionHandlersDelegatesAndTheSharedSessionAreServed(route: RunPlan.Route) async {
        let scenario = Build.scenario(
            exchanges: [
                Build.exchange("handler", path: "/handler"), Build.exchange("shared", path: "/shared", status: 204),
                Build.exchange("delegate", path: "/delegate", status: 202),
            ],
            steps: [
                Build.step(.perform(Build.call("getWithHandler", ["path": "/handler"]), parallel: 3, expect: .value(["status": 200]))),
                Build.step(.perform(Build.call("getShared", ["path": "/shared"]), parallel: 1, expect: .value(["status": 204]))),
                Build.step(.perform(Build.call("getWithDelegate", ["path": "/delegate"]), parallel: 1, expect: .value(["status": 202]))),
            ])
        var handler = scenario
        handler.exchanges[0].times = 3
        await expectOneTranscript(handler, route: route, runs: 21)
    }

    /// A request the app cancels while the backend holds its answer: URLSession tells the app,
    /// and the answer released later is dropped instead of reaching a task URLSession forgot.
    @Test(arguments: routes) func aCancelledRequestsLateAnswerIsDropped(route: RunPlan.Route) async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("held", path: "/held", release: .atStep("later"))],
            steps: [
                Build.step(.start(Build.call("getThenCancel", ["path": "/held"]), handle: "call")),
                Build.step(.await(handle: "call", expect: .error(["code": "cancelled"]))),
                Build.step(.advance(.seconds(5)), name: "later"),
            ])
        for _ in 0..<10 {
            let result = await run(scenario, route: route)
            #expect(result.status == .passed, "\(result.explanation)")
        }
    }

    @Test func detachedTasksGroupsAndMainActorRunAreCaptured() async {
        let scenario = Build.scenario(
            steps: [Build.step(.perform(Build.call("fanOut"), parallel: 1, expect: .value(["count": 6, "timeline": 1])))])
        for _ in 0..<20 {
            let result = await run(scenario, route: .direct)
            #expect(result.status == .passed, "\(result.explanation)")
        }
    }

    @Test func workResumedFromADispatchQueueIsTheScenarios() async {
        let scenario = Build.scenario(
            steps: [Build.step(.perform(Build.call("escapeViaDispatch"), parallel: 1, expect: .value(["seconds": 0.02])))])
        for _ in 0..<5 {
            let result = await run(scenario, route: .direct)
            #expect(result.status == .passed, "\(result.explanation)")
        }
    }

    /// (Which thread the runtime names depends on how it hands the resume on, so only its mention is checked.)
    @Test func workResumedFromAThreadIsAnEscapeThatNamesAThreadAndTheStep() async {
        let scenario = Build.scenario(
            steps: [Build.step(.perform(Build.call("escapeViaThread"), parallel: 1, expect: .ok))])
        for _ in 0..<5 {
            let result = await run(scenario, route: .direct)
            #expect(result.status == .error)
            #expect(
                result.errorMessage?.contains("escaped: a job was enqueued from a thread the scenario does not run (system name '") == true,
                "\(result.errorMessage ?? "")")
            #expect(result.errorLocation == Build.here)
        }
    }

    @Test func declaredOutsideWorkIsWaitedFor() async {
        let scenario = Build.scenario(
            steps: [Build.step(.perform(Build.call("declaredDispatch"), parallel: 1, expect: .ok))])
        for _ in 0..<5 {
            let result = await run(scenario, route: .direct)
            #expect(result.status == .passed, "\(result.explanation)")
        }
    }

    @Test func aDriverThatDoesNotAnswerIsNamed() async {
        let scenario = Build.scenario(steps: [Build.step(.runUntilIdle)], given: ["hangOnStart": true])
        let result = await run(scenario, route: .direct)
        #expect(result.status == .error)
        #expect(result.errorMessage?.contains("makeSession") == true, "\(result.errorMessage ?? "")")
    }

    @Test func ordinaryTasksBesideAScenarioAreNotCaptured() async throws {
        // Real sleeps and main-actor hops of code that is not the scenario's must keep running on
        // the runtime's own executors while scenarios run.
        let beside = Task.detached { () -> [String] in
            var threads: [String] = []
            for _ in 0..<40 {
                try? await Task.sleep(for: .milliseconds(1))
                threads.append(currentThreadName())
                threads.append(await MainActor.run { currentThreadName() })
            }
            return threads
        }
        for _ in 0..<20 {
            let result = await run(burst, route: .direct)
            #expect(result.status == .passed)
        }
        let threads = await beside.value
        #expect(threads.count == 80)
        #expect(!threads.contains { $0.hasPrefix("scenario ") }, "an ordinary task ran on a scenario's thread")
    }
}

/// The calling thread's name (a function: `Thread.current` is not for async code).
private func currentThreadName() -> String { Thread.current.name ?? "" }
