import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A stack that keeps the clock of the first run it was made in (a dependency prepared once per
/// process) sleeps on a clock whose run is over: the run it is in says so, instead of stuck.
@Suite struct EndedClockTests {
    /// The clock the first run handed out, kept as a process-wide dependency would keep it.
    final class KeptClock: @unchecked Sendable {
        private let lock = NSLock()
        private var clock: VirtualClock?
        func keep(_ offered: VirtualClock) -> VirtualClock {
            lock.withLock {
                if clock == nil { clock = offered }
                return clock ?? offered
            }
        }
    }

    struct KeepingDriver: ScenarioDriver {
        let kept: KeptClock
        var name: String { "Keeping" }
        var actions: [ActionSpec] { [ActionSpec("wait", "sleeps 5 s on the kept clock")] }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            KeepingSession(clock: kept.keep(context.clock))
        }
    }

    struct KeepingSession: ActionOnlySession {
        let clock: VirtualClock
        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            do {
                try await clock.sleep(until: clock.now.advanced(by: .seconds(5)))
                return .value(.null)
            } catch {
                return .error(["code": "cancelled"])
            }
        }
    }

    @Test func aSleepOnAnEndedRunsClockIsNamed() async {
        let driver = KeepingDriver(kept: KeptClock())
        let scenario = Build.scenario(steps: [Build.step(.perform(Build.call("wait"), parallel: 1, expect: .ok))])
        let first = await ScenarioRunner(driver: driver).run(scenario)
        #expect(first.status == .passed, "\(first.explanation)")
        let second = await ScenarioRunner(driver: driver).run(scenario)
        #expect(second.status == .error)
        #expect(second.explanation.contains("slept on the virtual clock of a scenario run that has ended"), "\(second.explanation)")
    }
}
