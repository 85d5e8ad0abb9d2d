import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// When a run ends, the app's tasks are cancelled and its waits woken. A loop that goes on when
/// cancelled would spin through the run's end unseen; it fails the run instead.
@Suite struct RunEndTests {
    struct PollerDriver: ScenarioDriver {
        /// Whether the poller stops when its task is cancelled.
        let stopsWhenCancelled: Bool
        var name: String { "Poller" }
        var actions: [ActionSpec] { [ActionSpec("startPoller", "polls /health every 15 s")] }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            PollerSession(poller: Poller(transport: context.transport, stopsWhenCancelled: stopsWhenCancelled))
        }
    }

    /// Polls until it goes, as apps write it: the owner's deinit cancels the task.
    final class Poller: @unchecked Sendable {
        let transport: any HTTPTransport
        let stopsWhenCancelled: Bool
        private let lock = NSLock()
        private var task: Task<Void, Never>?

        init(transport: any HTTPTransport, stopsWhenCancelled: Bool) {
            self.transport = transport
            self.stopsWhenCancelled = stopsWhenCancelled
        }

        deinit { lock.withLock { task?.cancel() } }

        func start() {
            let polling = Task { [transport, stopsWhenCancelled] in
                while !(stopsWhenCancelled && Task.isCancelled) {
                    try? await Task.sleep(for: .seconds(15))
                    _ = try? await transport.send(HTTPRequest(method: .get, path: "/health"))
                }
            }
            lock.withLock { task = polling }
        }
    }

    struct PollerSession: ActionOnlySession {
        let poller: Poller
        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            poller.start()
            return .value(.null)
        }
    }

    private func run(stopsWhenCancelled: Bool) async -> ScenarioResult {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("health", path: "/health", times: 2)],
            steps: [Build.step(.perform(Build.call("startPoller"), parallel: 1, expect: .ok)), Build.step(.advance(.seconds(30)))])
        return await ScenarioRunner(driver: PollerDriver(stopsWhenCancelled: stopsWhenCancelled)).run(scenario)
    }

    @Test func aLoopThatGoesOnWhenCancelledFailsTheRun() async {
        let result = await run(stopsWhenCancelled: false)
        #expect(result.status == .error)
        #expect(result.explanation.contains("the app ran on after its last step"), "\(result.explanation)")
    }

    @Test func aLoopThatStopsWhenCancelledEndsCleanly() async {
        let result = await run(stopsWhenCancelled: true)
        #expect(result.status == .passed, "\(result.explanation)")
    }

    struct ChainDriver: ScenarioDriver {
        var name: String { "Chain" }
        var actions: [ActionSpec] { [ActionSpec("chain", "GET /a, then GET /b when it is done, in a task of its own")] }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession { ChainSession(transport: context.transport) }
    }

    struct ChainSession: ActionOnlySession {
        let transport: any HTTPTransport
        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            let transport = self.transport
            Task {
                _ = try? await transport.send(HTTPRequest(method: .get, path: "/a"))
                _ = try? await transport.send(HTTPRequest(method: .get, path: "/b"))
            }
            return .value(.null)
        }
    }

    /// An answer the run ended before, and what the app sent while the run was taken down, are
    /// said as such in the transcript, not taken for part of the run.
    @Test func theTranscriptSaysWhatTheRunsEndCutShort() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("a", path: "/a", latency: .seconds(3600))],
            steps: [Build.step(.perform(Build.call("chain"), parallel: 1, expect: .ok))])
        let result = await ScenarioRunner(driver: ChainDriver()).run(scenario)
        #expect(result.status == .passed, "\(result.explanation)")
        let end = result.transcript.firstIndex { $0.hasSuffix("#1 ✗ unanswered when the run ended") }
        let over = result.transcript.firstIndex { $0.hasSuffix("(the run is over: what follows, the app sent while it was taken down)") }
        let late = result.transcript.firstIndex { $0.hasSuffix("#2 → GET /b") }
        #expect(end != nil && over != nil && late != nil, "\(result.transcript)")
        if let end, let over, let late { #expect(end < over && over < late, "\(result.transcript)") }
        // Nothing is served once the run is over: the request fails at once, never held or answered 404.
        #expect(result.transcript.last?.hasSuffix("#2 ✗ cancelled: the run is over") == true, "\(result.transcript)")
    }
}
