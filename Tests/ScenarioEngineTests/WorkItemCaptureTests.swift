import Dispatch
import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// `DispatchWorkItem` on the scenario's queues (Linux): `notify(queue:)` follows the item on the
/// virtual clock whether it is set before or after the item ran, or the app ran it itself;
/// `wait()` and `wait(timeout:)` wait on virtual time; a cancelled item still notifies.
@Suite struct WorkItemCaptureTests {
    struct ItemDriver: ScenarioDriver {
        var name: String { "WorkItems" }
        var actions: [ActionSpec] {
            ["notifyFirst", "notifyAfterRun", "performed", "waited", "waitTimesOut", "cancelled"].map { ActionSpec($0, "work items") }
        }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession { ItemSession(context: context) }
    }

    /// What happened, and when on the virtual clock.
    final class Log: @unchecked Sendable {
        let context: DriverContext
        private(set) var entries: [JSONValue] = []
        init(context: DriverContext) { self.context = context }

        func add(_ what: String) {
            let offset = context.clock.now.offset.components
            entries.append(.string("\(what)@\(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)"))
        }
    }

    /// One action's world: the stack's queue, a work item that logs "item", and the way to end.
    struct ItemRun: @unchecked Sendable {
        let queue: DispatchQueue
        let item: DispatchWorkItem
        let log: Log
        let finish: @Sendable () -> Void

        /// A notification that logs "notified" and ends the action.
        var notified: @Sendable () -> Void {
            { [log, finish] in
                log.add("notified")
                finish()
            }
        }
    }

    struct ItemSession: ActionOnlySession {
        let context: DriverContext

        /// Runs `body` in a block of the stack's own queue and answers the log once it finishes.
        private func onQueue(_ body: @escaping @Sendable (ItemRun) -> Void) async -> ActionResult {
            let log = Log(context: context)
            let queue = DispatchQueue(label: "stack.items")
            let entries: [JSONValue] = await withCheckedContinuation { done in
                queue.async {
                    body(
                        ItemRun(queue: queue, item: DispatchWorkItem { log.add("item") }, log: log) { done.resume(returning: log.entries) })
                }
            }
            return .value(.array(entries))
        }

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            switch action {
            case "notifyFirst":
                return await onQueue { run in
                    run.item.notify(queue: .main, execute: run.notified)
                    run.queue.asyncAfter(deadline: .now() + 5, execute: run.item)
                }
            case "notifyAfterRun":
                return await onQueue { run in
                    run.queue.async(execute: run.item)
                    run.queue.asyncAfter(deadline: .now() + 2) { run.item.notify(queue: .main, execute: run.notified) }
                }
            case "performed":
                return await onQueue { run in
                    run.item.notify(queue: run.queue, execute: run.notified)
                    run.queue.asyncAfter(deadline: .now() + 3) { run.item.perform() }
                }
            case "waited":
                return await onQueue { run in
                    DispatchQueue(label: "stack.other").asyncAfter(deadline: .now() + 4, execute: run.item)
                    run.item.wait()
                    run.log.add("waited")
                    run.item.wait()
                    run.log.add("waitedAgain")
                    run.finish()
                }
            case "waitTimesOut":
                return await onQueue { run in
                    let result = run.item.wait(timeout: .now() + 1)
                    run.log.add(result == .timedOut ? "timedOut" : "success")
                    run.finish()
                }
            case "cancelled":
                return await onQueue { run in
                    run.item.notify(queue: run.queue, execute: run.notified)
                    run.queue.asyncAfter(deadline: .now() + 5, execute: run.item)
                    run.queue.asyncAfter(deadline: .now() + 1) { run.item.cancel() }
                }
            default:
                return .error(["code": "unknownAction"])
            }
        }
    }

    #if os(Linux)
        static let cases: [(String, JSONValue)] = [
            ("notifyFirst", ["item@5.0", "notified@5.0"]), ("notifyAfterRun", ["item@0.0", "notified@2.0"]),
            ("performed", ["item@3.0", "notified@3.0"]), ("waited", ["item@4.0", "waited@4.0", "waitedAgain@4.0"]),
            ("waitTimesOut", ["timedOut@1.0"]), ("cancelled", ["notified@5.0"]),
        ]

        @Test(arguments: cases)
        func aWorkItemIsTheScenarios(action: String, expected: JSONValue) async {
            let result = await Build.runOne(action, expecting: expected, with: ItemDriver())
            #expect(result.status == .passed, "\(result.explanation)")
        }
    #endif
}
