import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Queues the scenario shares with the rest of the process, and queues aimed at the scenario's.
@Suite(.serialized) struct SharedQueueCaptureTests {
    /// Foundation's queue made before the run (like the shared cookie storage's) guards state other
    /// threads use meanwhile: the runner's `sync` and `async` blocks on it hold its real lock, so
    /// a thread of the process never runs beside them.
    @Test func theRunnersBlocksOnAQueueFoundationSharesHoldItsRealLock() async {
        let shared = DispatchQueue(label: "org.swift.test.SharedState")
        let inside = Flag()
        let overlaps = TickCounter()
        let neighbour = Thread {
            while !inside.stopped {
                shared.sync { if inside.isSet { overlaps.add() } }
            }
        }
        neighbour.start()
        let hold: @Sendable () -> Void = {
            inside.set(true)
            usleep(20_000)
            inside.set(false)
        }
        let driver = ClosureDriver { _ in
            for _ in 0..<3 {
                shared.sync(execute: hold)
                await withCheckedContinuation { continuation in
                    shared.async {
                        hold()
                        continuation.resume()
                    }
                }
            }
            return .null
        }
        let scenario = Build.scenario(steps: [Build.step(.perform(Build.call("act"), parallel: 1, expect: .ok))])
        let result = await ScenarioRunner(driver: driver, plan: RunPlan(route: .direct)).run(scenario)
        inside.stop()
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(overlaps.value == 0, "another thread ran a block of the shared queue while the runner held it")
    }

    /// A queue made by another thread but aimed at the scenario's queue runs its blocks in that
    /// queue's order: they run on the runner, not on a thread of libdispatch beside it (and a
    /// block from a Thread of the app's own is named as an escape, as for the scenario's queue).
    @Test func aQueueAimedAtTheScenariosQueueIsTheScenarios() async {
        let ranOnRunner = TickCounter()
        let driver = ClosureDriver { _ in
            let parent = DispatchQueue(label: "stack.parent")
            parent.sync {}  // the scenario's: made and used on the runner
            let runner = Capture.currentScheduler
            await withCheckedContinuation { continuation in
                Thread {
                    let child = DispatchQueue(label: "stack.child", target: parent)
                    child.async {
                        if Capture.currentScheduler === runner { ranOnRunner.add() }
                        continuation.resume()
                    }
                }.start()
            }
            return .null
        }
        let scenario = Build.scenario(steps: [Build.step(.perform(Build.call("act"), parallel: 1, expect: .ok))])
        let result = await ScenarioRunner(driver: driver, plan: RunPlan(route: .direct)).run(scenario)
        #expect(
            result.errorMessage?.contains(
                "escaped: a block for queue 'stack.child' was enqueued from a thread the scenario does not run (system name '") == true,
            "\(result.explanation)")
        #expect(ranOnRunner.value == 1)
    }
}

/// A driver with one action, `act`, that runs `body`.
private struct ClosureDriver: ScenarioDriver {
    let body: @Sendable (JSONValue) async -> JSONValue
    var name: String { "Closure" }
    var actions: [ActionSpec] { [ActionSpec("act", "runs the test's closure")] }
    var givenKeys: [GivenSpec] { [] }
    func makeSession(_ context: DriverContext) async throws -> any DriverSession { ClosureSession(body: body) }
}

private struct ClosureSession: DriverSession {
    let body: @Sendable (JSONValue) async -> JSONValue
    func perform(_ action: String, arguments: JSONValue) async -> ActionResult { .value(await body(arguments)) }
    func snapshot() async -> JSONValue { [:] }
    func alerts() async -> [JSONValue] { [] }
    func timeline() async -> [JSONValue] { [] }
}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    private var done = false
    var isSet: Bool { lock.withLock { value } }
    var stopped: Bool { lock.withLock { done } }
    func set(_ on: Bool) { lock.withLock { value = on } }
    func stop() { lock.withLock { done = true } }
}
