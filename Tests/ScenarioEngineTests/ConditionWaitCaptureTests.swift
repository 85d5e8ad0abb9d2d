import Dispatch
import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A condition wait on the runner (Linux: `libFoundation.so`'s `pthread_cond_wait` and
/// `pthread_cond_timedwait`) lets the scenario's other work run, so what the waiting code waits
/// for can happen: a `NotificationCenter` post from a queue to an observer on the main queue, an
/// `NSCondition` another block signals, a timed wait on virtual time.
@Suite struct ConditionWaitCaptureTests {
    struct ConditionDriver: ScenarioDriver {
        var name: String { "Conditions" }
        var actions: [ActionSpec] {
            [
                ActionSpec("post", "a queue posts a notification observed on the main queue"),
                ActionSpec("signal", "a queue waits on an NSCondition a later main-queue block signals"),
                ActionSpec("timedWait", "a queue waits on an NSCondition until 5 s later; nothing signals"),
                ActionSpec("appThreadSignals", "a queue waits on an NSCondition only a thread of the app's own signals"),
                ActionSpec("concurrentQueue", "a block of a concurrent queue waits on a semaphore the queue's next block signals"),
                ActionSpec("operationQueue", "an operation waits on a semaphore the queue's next operation signals (width 2)"),
            ]
        }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession { ConditionSession(context: context) }
    }

    final class ConditionSession: ActionOnlySession, @unchecked Sendable {
        let context: DriverContext
        init(context: DriverContext) { self.context = context }

        private var now: JSONValue {
            let offset = context.clock.now.offset.components
            return .number(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
        }

        /// Runs `body` as a block of a queue of the stack's own, and answers what it noted.
        private func onAQueue(_ body: @escaping @Sendable (_ note: @escaping @Sendable (String, JSONValue) -> Void) -> Void) async
            -> JSONValue
        {
            let noted = Noted()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue(label: "conditions.worker").async {
                    body(noted.note)
                    done.resume()
                }
            }
            return noted.value
        }

        /// Starts `work` with a semaphore and a `done` to call once the wait on it returned;
        /// answers when `done` was called, with the virtual time.
        private func waitedFor(
            _ work: (DispatchSemaphore, @escaping @Sendable () -> Void) -> Void
        ) async -> JSONValue {
            let semaphore = DispatchSemaphore(value: 0)
            await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                work(semaphore) { finished.resume() }
            }
            return ["waited": true, "at": now]
        }

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            switch action {
            case "post":
                let name = Notification.Name("conditions.\(UUID())")
                let center = NotificationCenter()
                return .value(
                    await onAQueue { note in
                        let observer = center.addObserver(forName: name, object: nil, queue: .main) { _ in note("observed", .bool(true)) }
                        center.post(name: name, object: nil)
                        note("postReturned", .bool(true))
                        center.removeObserver(observer)
                    })
            case "signal":
                return .value(
                    await onAQueue { note in
                        let condition = NSCondition()
                        let flag = Flag()
                        DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
                            condition.lock()
                            flag.set()
                            condition.signal()
                            condition.unlock()
                        }
                        condition.lock()
                        while !flag.isSet { condition.wait() }
                        condition.unlock()
                        note("signalledAt", self.now)
                    })
            case "timedWait":
                return .value(
                    await onAQueue { note in
                        let condition = NSCondition()
                        condition.lock()
                        let signalled = condition.wait(until: Date().addingTimeInterval(5))
                        condition.unlock()
                        note("signalled", .bool(signalled))
                        note("gaveUpAt", self.now)
                    })
            case "appThreadSignals":
                return .value(
                    await onAQueue { note in
                        let condition = NSCondition()
                        let flag = Flag()
                        Thread {
                            Thread.sleep(forTimeInterval: 0.05)
                            condition.lock()
                            flag.set()
                            condition.signal()
                            condition.unlock()
                        }.start()
                        condition.lock()
                        while !flag.isSet { condition.wait() }
                        condition.unlock()
                        note("signalled", .bool(true))
                    })
            case "concurrentQueue":
                let queue = DispatchQueue(label: "conditions.concurrent", attributes: .concurrent)
                return .value(
                    await waitedFor { semaphore, done in
                        queue.async {
                            semaphore.wait()
                            done()
                        }
                        queue.async { semaphore.signal() }
                    })
            case "operationQueue":
                let operations = OperationQueue()
                operations.maxConcurrentOperationCount = 2
                return .value(
                    await waitedFor { semaphore, done in
                        operations.addOperation {
                            semaphore.wait()
                            done()
                        }
                        operations.addOperation { semaphore.signal() }
                    })
            default:
                return .error(["code": "unknownAction"])
            }
        }
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    private func run(_ action: String, expect: JSONValue) async -> ScenarioResult {
        await Build.runOne(action, expecting: expect, with: ConditionDriver())
    }

    #if os(Linux)
        /// The observer runs on the main queue before `post` returns, as Foundation promises.
        @Test func aPostToAnObserverOnTheMainQueueWaitsForIt() async {
            #expect(DispatchCapture.hasVirtualWaits)
            let result = await run("post", expect: ["observed": true, "postReturned": true])
            #expect(result.status == .passed, "\(result.explanation)")
        }

        @Test func aConditionAnotherBlockSignalsEndsAtItsVirtualTime() async {
            let result = await run("signal", expect: ["signalledAt": 2])
            #expect(result.status == .passed, "\(result.explanation)")
        }

        @Test func aTimedWaitTimesOutOnVirtualTime() async {
            let result = await run("timedWait", expect: ["signalled": false, "gaveUpAt": 5])
            #expect(result.status == .passed, "\(result.explanation)")
        }

        /// A wait nothing in the scenario can end is an escape; the thread then waits for real.
        @Test func aConditionOnlyAnAppThreadSignalsIsAnEscape() async {
            let result = await run("appThreadSignals", expect: ["signalled": true])
            #expect(result.status == .error)
            #expect(result.explanation.contains("escaped: the app blocked a thread on a condition"), "\(result.explanation)")
        }

        /// A queue made concurrent, and an `OperationQueue` of width 2 (a concurrent queue inside),
        /// run their next block while one waits, as libdispatch's threads would.
        @Test(arguments: ["concurrentQueue", "operationQueue"])
        func aConcurrentQueueRunsItsNextBlockWhileOneWaits(_ action: String) async {
            let result = await run(action, expect: ["waited": true, "at": 0])
            #expect(result.status == .passed, "\(result.explanation)")
        }
    #endif
}
