import Dispatch
import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A `Timer` the stack schedules from the scenario's thread (Linux) ticks on the virtual clock,
/// as a main-queue block: once, repeating until invalidated, added to a run loop for the common
/// modes, invalidated before it fires, and moved to a later fire date.
@Suite struct RunLoopTimerCaptureTests {
    struct TimerDriver: ScenarioDriver {
        var name: String { "Timers" }
        var actions: [ActionSpec] { ["once", "repeating", "invalidated", "commonModes", "moved"].map { ActionSpec($0, "a Timer") } }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession { TimerSession(context: context) }
    }

    final class TimerSession: ActionOnlySession, @unchecked Sendable {
        let context: DriverContext
        init(context: DriverContext) { self.context = context }

        /// Virtual seconds since the scenario began.
        private var now: Double {
            let offset = context.clock.now.offset.components
            return Double(offset.seconds) + Double(offset.attoseconds) / 1e18
        }

        /// Runs `body` in a main-queue block, as an app's code would, and waits for its answer.
        private func onMain(_ body: @escaping @Sendable (@escaping @Sendable (JSONValue) -> Void) -> Void) async -> ActionResult {
            let value: JSONValue = await withCheckedContinuation { done in
                DispatchQueue.main.async { body { done.resume(returning: $0) } }
            }
            return .value(value)
        }

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            switch action {
            case "once":
                return await onMain { answer in
                    // `_ =`: the result is discardable in Apple's Foundation, not in Linux's.
                    _ = Timer.scheduledTimer(withTimeInterval: 30, repeats: false) { _ in answer(["firedAt": .number(self.now)]) }
                }
            case "repeating":
                return await onMain { answer in
                    nonisolated(unsafe) var ticks: [JSONValue] = []
                    _ = Timer.scheduledTimer(withTimeInterval: 15, repeats: true) { timer in
                        ticks.append(.number(self.now))
                        guard ticks.count == 3 else { return }
                        timer.invalidate()
                        // Another minute: an invalidated timer ticks no more.
                        DispatchQueue.main.asyncAfter(deadline: .now() + 60) { answer(["ticks": .array(ticks)]) }
                    }
                }
            case "invalidated":
                return await onMain { answer in
                    nonisolated(unsafe) var fired = false
                    let timer = Timer.scheduledTimer(withTimeInterval: 10, repeats: false) { _ in fired = true }
                    DispatchQueue.main.asyncAfter(deadline: .now() + 5) { timer.invalidate() }
                    DispatchQueue.main.asyncAfter(deadline: .now() + 20) { answer(["fired": .bool(fired)]) }
                }
            case "commonModes":
                return await onMain { answer in
                    // (Foundation's `Timer(timeInterval:repeats:block:)` on Linux fires at once: a fire date.)
                    let timer = Timer(fire: Date().addingTimeInterval(2.5), interval: 0, repeats: false) { _ in
                        answer(["firedAt": .number(self.now)])
                    }
                    RunLoop.current.add(timer, forMode: .common)
                }
            case "moved":
                return await onMain { answer in
                    let timer = Timer.scheduledTimer(withTimeInterval: 10, repeats: false) { _ in answer(["firedAt": .number(self.now)]) }
                    DispatchQueue.main.asyncAfter(deadline: .now() + 5) { timer.fireDate = Date().addingTimeInterval(20) }
                }
            case "fromGlobalQueue", "mainLoopFromGlobalQueue":
                // A background queue's thread runs no run loop: only a timer put on the main one fires.
                return await onMain { answer in
                    nonisolated(unsafe) var fired = false
                    DispatchQueue.global().async {
                        let timer = Timer(fire: Date().addingTimeInterval(10), interval: 0, repeats: false) { _ in fired = true }
                        (action == "fromGlobalQueue" ? RunLoop.current : RunLoop.main).add(timer, forMode: .default)
                    }
                    DispatchQueue.main.asyncAfter(deadline: .now() + 60) { answer(["fired": .bool(fired)]) }
                }
            case "fromQueueTargetingMain":
                // Its blocks run on the main thread, so its current run loop is the main one.
                return await onMain { answer in
                    nonisolated(unsafe) var fired = false
                    DispatchQueue(label: "ui", target: .main).async {
                        _ = Timer.scheduledTimer(withTimeInterval: 10, repeats: false) { _ in fired = true }
                    }
                    DispatchQueue.main.asyncAfter(deadline: .now() + 60) { answer(["fired": .bool(fired)]) }
                }
            default:
                return .error(["code": "unknownAction"])
            }
        }
    }

    #if os(Linux)
        static let cases: [(String, JSONValue)] = [
            ("once", ["firedAt": 30]), ("repeating", ["ticks": [15, 30, 45]]), ("invalidated", ["fired": false]),
            ("commonModes", ["firedAt": 2.5]), ("moved", ["firedAt": 25]), ("fromGlobalQueue", ["fired": false]),
            ("mainLoopFromGlobalQueue", ["fired": true]), ("fromQueueTargetingMain", ["fired": true]),
        ]

        @Test(arguments: cases)
        func aTimerTicksOnVirtualTime(action: String, expected: JSONValue) async {
            let result = await Build.runOne(action, expecting: expected, with: TimerDriver())
            #expect(result.status == .passed, "\(result.explanation)")
        }
    #endif
}
