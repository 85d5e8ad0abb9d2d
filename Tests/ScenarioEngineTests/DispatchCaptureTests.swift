import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stack written with completion handlers and Dispatch is the scenario's: its queues, its
/// `asyncAfter` and timers run on the virtual clock, one block at a time, the same on every run.
@Suite struct DispatchCaptureTests {
    private func run(_ scenario: Scenario) async -> ScenarioResult {
        await ScenarioRunner(driver: DispatchStyleDriver(), plan: RunPlan(route: .urlSession)).run(scenario)
    }

    private func get(_ path: String, expect: JSONValue, parallel: Int = 1) -> Step {
        Build.step(.perform(Build.call("get", ["path": .string(path)]), parallel: parallel, expect: .value(expect)))
    }

    /// Ten concurrent 403s, each answer hopping through the client's queue and the main queue.
    private var burst: Scenario {
        Build.scenario(
            exchanges: [Build.exchange("feed-403", path: "/feed", status: 403, times: 10, release: .whenPending(10))],
            steps: [get("/feed", expect: ["result": ["status": 403], "seconds": 0], parallel: 10)],
            expect: Expectations(alerts: ["Account Blocked"]))
    }

    @Test func mainQueueHopsAreTheScenariosAndGiveOneTranscript() async {
        let first = await run(burst)
        #expect(first.status == .passed, "\(first.explanation)")
        for _ in 0..<50 {
            let again = await run(burst)
            #expect(again.status == .passed, "\(again.explanation)")
            #expect(again.transcript == first.transcript)
        }
    }

    @Test func anAlertTheStackNeverShowsFails() async {
        var scenario = burst
        scenario.expect.alerts = ["Account Blocked", "Account Blocked"]
        #expect(await run(scenario).status == .failed)
    }

    @Test func anHourOfRetryAfterOnAsyncAfterIsVirtual() async {
        let scenario = Build.scenario(
            exchanges: [
                Build.exchange("limited", path: "/feed", status: 429, headers: ["Retry-After": "3600"]),
                Build.exchange("ok", path: "/feed", after: ["limited"]),
            ],
            steps: [get("/feed", expect: ["result": ["status": 200], "seconds": 3600])])
        let result = await run(scenario)
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(result.virtualTime == .seconds(3600))
    }

    @Test func aRetryBeforeRetryAfterIsCaught() async {
        let scenario = Build.scenario(
            exchanges: [
                Build.exchange("limited", path: "/feed", status: 429, headers: ["Retry-After": "3"]),
                Build.exchange("ok", path: "/feed", after: ["limited"]),
            ],
            steps: [get("/feed", expect: ["result": ["status": 200], "seconds": 2])])
        #expect(await run(scenario).status == .failed)
    }

    @Test func aDispatchTimerTicksOnVirtualTime() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("health", path: "/health", times: 3)],
            steps: [
                Build.step(
                    .perform(Build.call("poll", ["path": "/health"]), parallel: 1, expect: .value(["result": ["polls": 3], "seconds": 45])))
            ])
        let result = await run(scenario)
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(result.virtualTime == .seconds(45))
    }

    @Test func aGroupNotifiesOnceEveryAnswerIsIn() async {
        let scenario = Build.scenario(
            exchanges: [
                Build.exchange("a", path: "/a", latency: .seconds(2)), Build.exchange("b", path: "/b", status: 404),
                Build.exchange("c", path: "/c", status: 500, latency: .seconds(1)),
            ],
            steps: [Build.step(.perform(Build.call("fanOut"), parallel: 1, expect: .value(["result": [200, 404, 500], "seconds": 2])))])
        let result = await run(scenario)
        #expect(result.status == .passed, "\(result.explanation)")
    }

    /// A scenario ends clean: its timers and `asyncAfter` chains stop with it and nothing of it
    /// ticks during the next scenario or afterwards.
    @Test func timersAndDelayedBlocksDoNotOutliveTheirScenario() async throws {
        let driver = DispatchStyleDriver()
        let ticking = Build.scenario(
            steps: [
                Build.step(.perform(Build.call("tickForever"), parallel: 1, expect: .ok)), Build.step(.advance(.milliseconds(3500))),
            ])
        let first = await ScenarioRunner(driver: driver, plan: RunPlan(route: .urlSession)).run(ticking)
        #expect(first.status == .passed, "\(first.explanation)")
        #expect(driver.ticks.value == 6, "three timer ticks and three asyncAfter ticks in 3.5 virtual seconds")
        let next = Build.scenario(steps: [Build.step(.advance(.seconds(3600)))])
        let second = await ScenarioRunner(driver: DispatchStyleDriver(), plan: RunPlan(route: .urlSession)).run(next)
        #expect(second.status == .passed, "\(second.explanation)")
        try await Task.sleep(for: .milliseconds(1200))
        #expect(driver.ticks.value == 6, "nothing ticked after its scenario ended")
    }

    /// A stack that invalidates its URLSession as it goes, as Alamofire's `Session` does in its
    /// deinit: the delegate's `didBecomeInvalid` (on an `OperationQueue` over the stack's own
    /// queue) and the main-queue hop it makes run inside the scenario, before the run returns,
    /// not on libdispatch's threads while the next scenario runs.
    @Test func whatTheStackStartsAsItGoesRunsInsideItsScenario() async {
        let seen = InvalidationLog()
        let scenario = Build.scenario(steps: [Build.step(.advance(.seconds(1)))])
        let result = await ScenarioRunner(driver: InvalidatingDriver(seen: seen)).run(scenario)
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(seen.events == ["didBecomeInvalid on the runner", "main queue on the runner"])
    }

    @Test func aSemaphoreWaitOnTheClientsQueueIsServed() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("me", path: "/me", status: 201, latency: .seconds(5))],
            steps: [
                Build.step(
                    .perform(
                        Build.call("getBlocking", ["path": "/me"]), parallel: 1, expect: .value(["result": ["status": 201], "seconds": 5])))
            ])
        let result = await run(scenario)
        #expect(result.status == .passed, "\(result.explanation)")
    }
}

/// What ran, and whether on the scenario's runner thread (the thread that built the stack).
final class InvalidationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private var runner: Thread?
    var events: [String] { lock.withLock { recorded } }
    func builtHere() { lock.withLock { runner = Thread.current } }
    func add(_ event: String) {
        let current = Thread.current
        lock.withLock { recorded.append(event + (current === runner ? " on the runner" : " on another thread")) }
    }
}

private final class InvalidationDelegate: NSObject, URLSessionDelegate, @unchecked Sendable {
    let seen: InvalidationLog
    init(seen: InvalidationLog) { self.seen = seen }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        seen.add("didBecomeInvalid")
        DispatchQueue.main.async { [seen] in seen.add("main queue") }
    }
}

/// A URLSession whose delegate queue runs on the stack's own serial queue, invalidated in deinit.
private final class InvalidatingStack: @unchecked Sendable {
    let session: URLSession
    /// Held here: an operation queue does not keep its underlying queue alive (on Linux).
    let root = DispatchQueue(label: "stack.root")

    init(configuration: URLSessionConfiguration, seen: InvalidationLog) {
        seen.builtHere()
        let delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.underlyingQueue = root
        session = URLSession(configuration: configuration, delegate: InvalidationDelegate(seen: seen), delegateQueue: delegateQueue)
    }

    deinit { session.invalidateAndCancel() }
}

private struct InvalidatingDriver: ScenarioDriver {
    let seen: InvalidationLog
    var name: String { "Invalidating" }
    var actions: [ActionSpec] { [] }
    var givenKeys: [GivenSpec] { [] }

    func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        InvalidatingSession(stack: InvalidatingStack(configuration: context.urlSessionConfiguration(), seen: seen))
    }
}

private struct InvalidatingSession: DriverSession {
    let stack: InvalidatingStack
    func perform(_ action: String, arguments: JSONValue) async -> ActionResult { .value(nil) }
    func snapshot() async -> JSONValue { [:] }
    func alerts() async -> [JSONValue] { [] }
    func timeline() async -> [JSONValue] { [] }
}
