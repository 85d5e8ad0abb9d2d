import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A process that runs scenarios one after another (a test bundle, a worker, `scenario run
/// --jobs 1`) keeps nothing of a run once it has ended: its clock, scheduler, backend and
/// transcript go with it, however it ended. The clock is watched: the run, its scheduler and
/// its backend each hold it, so it outlives the run if any of them does.
@Suite struct RunReleaseTests {
    /// The clocks the driver was handed, held weakly.
    final class Watched: @unchecked Sendable {
        private struct Weak {
            weak var clock: VirtualClock?
        }
        private let lock = NSLock()
        private var clocks: [Weak] = []

        func add(_ clock: VirtualClock) { lock.withLock { clocks.append(Weak(clock: clock)) } }

        var handedOut: Int { lock.withLock { clocks.count } }
        var alive: Int { lock.withLock { clocks.filter { $0.clock != nil }.count } }

        /// Waits (up to 10 s of real time: the runner's thread lets go as it exits) until no
        /// clock is alive; returns how many still are.
        func aliveAfterRunsEnd() async -> Int {
            var waits = 0
            while alive > 0, waits < 1_000 {
                waits += 1
                try? await Task.sleep(for: .milliseconds(10))
            }
            return alive
        }
    }

    /// ``TestDriver``, watching each run's clock.
    struct WatchingDriver: ScenarioDriver {
        let watched: Watched
        var name: String { "Watching" }
        var actions: [ActionSpec] { TestDriver().actions }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            watched.add(context.clock)
            return try await TestDriver().makeSession(context)
        }
    }

    /// A request, a sleep and a background poller: the scheduler, the backend and the clock all work.
    static func scenario(expecting status: Double) -> Scenario {
        Build.scenario(
            exchanges: [Build.exchange("feed", path: "/feed")],
            steps: [
                Build.step(.start(Build.call("poll"), handle: "poller")),
                Build.step(.perform(Build.call("get", ["path": "/feed"]), parallel: 1, expect: .value(["status": .number(status)]))),
                Build.step(.perform(Build.call("sleep", ["seconds": 30]), parallel: 1, expect: .ok)),
            ])
    }

    @Test(arguments: [RunPlan.Route.direct, .urlSession])
    func passingAndFailingRunsLetGoOfEverything(route: RunPlan.Route) async {
        let watched = Watched()
        let runner = ScenarioRunner(driver: WatchingDriver(watched: watched), plan: RunPlan(route: route))
        for _ in 0..<3 {
            let passed = await runner.run(Self.scenario(expecting: 200))
            #expect(passed.status == .passed, "\(passed.explanation)")
            let failed = await runner.run(Self.scenario(expecting: 404))
            #expect(failed.status == .failed, "\(failed.explanation)")
        }
        #expect(watched.handedOut == 6)
        let alive = await watched.aliveAfterRunsEnd()
        #expect(alive == 0, "\(alive) of 6 runs kept after they ended")
    }

    @Test func anErroredRunLetsGoOfEverything() async {
        let watched = Watched()
        // A sleep past the time limit: the run ends stuck, the sleeper still waiting.
        let scenario = Build.scenario(
            steps: [Build.step(.perform(Build.call("sleep", ["seconds": 3_600]), parallel: 1, expect: .ok))], timeLimit: .seconds(60))
        let result = await ScenarioRunner(driver: WatchingDriver(watched: watched)).run(scenario)
        #expect(result.status == .error, "\(result.explanation)")
        #expect(watched.handedOut == 1)
        let alive = await watched.aliveAfterRunsEnd()
        #expect(alive == 0, "an errored run kept after it ended")
    }

    /// What a test bundle's exploring case runs: every schedule's run goes too.
    @Test func exploredRunsLetGoOfEverything() async {
        let watched = Watched()
        let result = await ScenarioRunner(driver: WatchingDriver(watched: watched), plan: RunPlan(mode: .explored(schedules: 5, seed: 1)))
            .run(Self.scenario(expecting: 200))
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(watched.handedOut == 5)
        let alive = await watched.aliveAfterRunsEnd()
        #expect(alive == 0, "\(alive) of 5 explored runs kept after they ended")
    }
}
