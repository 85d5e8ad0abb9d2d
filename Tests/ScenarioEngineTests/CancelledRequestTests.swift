import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request the app cancels before its answer came is logged as cancelled when it is, and the
/// answer it would have got is dropped: the transcript does not show it answered later, and the
/// invariants do not count it as away.
@Suite struct CancelledRequestTests {
    struct CancellingDriver: ScenarioDriver {
        var name: String { "Cancelling" }
        var actions: [ActionSpec] {
            [
                ActionSpec("cancelAfterATenth", "GET /slow through a session of the driver's configuration, cancel it 0.1 s later"),
                ActionSpec("cancelThenAgain", "the same, then GET /slow again and wait for its answer"),
                ActionSpec("cancelTransportAfterATenth", "GET /slow through the context's transport, cancel the task 0.1 s later"),
            ]
        }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            CancellingSession(
                session: URLSession(configuration: context.urlSessionConfiguration()), base: context.baseURL, transport: context.transport)
        }
    }

    struct CancellingSession: ActionOnlySession {
        let session: URLSession
        let base: URL
        let transport: any HTTPTransport

        /// Sends, cancels the task 0.1 s later, and says how the send ended: `nil` when answered.
        private func cancelAfterATenth(_ send: @escaping @Sendable () async throws -> Void) async -> String? {
            let request = Task { try await send() }
            try? await Task.sleep(for: .milliseconds(100))
            request.cancel()
            do {
                try await request.value
                return nil
            } catch {
                let cancelled = (error as? URLError)?.code == .cancelled || (error as? TransportError)?.code == .cancelled
                return cancelled ? "cancelled" : "\(error)"
            }
        }

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            let (session, transport) = (self.session, self.transport)
            let slow = base.appendingPathComponent("slow")
            let code: String?
            if action == "cancelTransportAfterATenth" {
                code = await cancelAfterATenth { _ = try await transport.send(HTTPRequest(method: .get, path: "/slow")) }
            } else {
                code = await cancelAfterATenth { _ = try await session.data(from: slow) }
            }
            guard let code else { return .value(["answered": true]) }
            guard action == "cancelThenAgain", code == "cancelled" else { return .error(["code": .string(code)]) }
            return (try? await session.data(from: slow)) == nil ? .error(["code": "failed"]) : .value(["answered": true])
        }
    }

    private func scenario(_ action: String = "cancelAfterATenth") -> Scenario {
        Build.scenario(
            exchanges: [Build.exchange("slow", path: "/slow", latency: .seconds(2))],
            steps: [
                Build.step(.perform(Build.call(action), parallel: 1, expect: .error(["code": "cancelled"]))),
                Build.step(.advance(.seconds(5))),
            ])
    }

    /// The cancelled request is no longer away once cancelled: sending it again is one in flight.
    @Test func aCancelledRequestIsNotAwayAnyMore() async {
        var scenario = Build.scenario(
            exchanges: [Build.exchange("slow", path: "/slow", times: 2, latency: .seconds(2))],
            steps: [Build.step(.perform(Build.call("cancelThenAgain"), parallel: 1, expect: .value(["answered": true])))])
        scenario.invariants = [
            Invariant(
                id: "one-at-a-time", description: "",
                rule: .maxInFlight(requests: RequestMatcher(method: .get, path: .exact("/slow")), max: 1),
                location: ScenarioLocation(file: "invariants.json", line: 1, column: 1, path: "$"))
        ]
        let result = await ScenarioRunner(driver: CancellingDriver()).run(scenario)
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test(arguments: [RunPlan.Route.direct, .urlSession])
    func aCancelledRequestIsLoggedWhenItIsCancelledAndNeverAnswered(route: RunPlan.Route) async {
        for action in ["cancelAfterATenth", "cancelTransportAfterATenth"] {
            let result = await ScenarioRunner(driver: CancellingDriver(), plan: RunPlan(route: route)).run(scenario(action))
            #expect(result.status == .passed, "\(action): \(result.explanation)")
            #expect(result.transcript.contains("[0.100s] #1 ✗ cancelled by the app"), "\(action): \(result.transcript)")
            #expect(!result.transcript.contains { $0.contains("#1 ←") }, "\(action): \(result.transcript)")
        }
    }

    /// An answer due for a request its client is giving up (a URLSession task whose `cancel()` is
    /// under way) is logged as cancelled and never handed over: FoundationNetworking would
    /// complete the task with it and then stop the process failing the task as cancelled.
    @Test(arguments: [false, true])
    func anAnswerTheClientNoLongerWantsIsNotHandedOver(wanted: Bool) {
        let backend = ScriptedBackend(exchanges: [Build.exchange("feed", path: "/feed")], clock: VirtualClock(start: Date()))
        let handedOver = NSLock()
        nonisolated(unsafe) var responses = 0
        backend.handle(
            HTTPRequest(method: .get, path: "/feed"), isWanted: { wanted }, respond: { _ in handedOver.withLock { responses += 1 } })
        #expect(handedOver.withLock { responses } == (wanted ? 1 : 0))
        let last = backend.transcriptLines.last ?? ""
        #expect(last.hasSuffix(wanted ? "#1 ← 200 OK via feed" : "#1 ✗ cancelled by the app"), "\(backend.transcriptLines)")
    }
}
