import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Answers due at one instant reach a URLSession stack one at a time, whatever the host
/// captures: the next goes only once the app has taken the last one and what it sent in return
/// has reached the backend. With capture of Swift concurrency only (Apple platforms, or
/// `SCENARIO_CAPTURE=concurrencyOnly`), URLSession passes answers on from threads of its own, so
/// without that wait both answers would be gone before the app saw the first, and the run would
/// read differently from the same run under full capture.
@Suite struct HandOverRuleTests {
    struct Driver: ScenarioDriver {
        var name: String { "HandOver" }
        var actions: [ActionSpec] { [ActionSpec("chain", "GET /a, then GET /c"), ActionSpec("b", "GET /b")] }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession { Session(transport: context.transport) }
    }

    struct Session: ActionOnlySession {
        let transport: any HTTPTransport

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            do {
                let paths = action == "chain" ? ["/a", "/c"] : ["/b"]
                for path in paths { _ = try await transport.send(HTTPRequest(method: .get, path: path)) }
                return .value(.null)
            } catch {
                return .error(["code": .string("\(error)")])
            }
        }
    }

    /// `/a` and `/b` are answered together a second in; the app sends `/c` on `/a`'s answer.
    static let scenario = Build.scenario(
        exchanges: [
            Build.exchange("a", path: "/a", latency: .seconds(1)), Build.exchange("b", path: "/b", latency: .seconds(1)),
            Build.exchange("c", path: "/c"),
        ],
        steps: [
            Build.step(.start(Build.call("chain"), handle: "chain")), Build.step(.start(Build.call("b"), handle: "b")),
            Build.step(.advance(.seconds(1))), Build.step(.await(handle: "chain", expect: .ok)),
            Build.step(.await(handle: "b", expect: .ok)),
        ])

    /// `/c` reaches the backend before `/b`'s answer goes to the app.
    static let expected = [
        "[0.000s] #1 → GET /a", "[0.000s] #2 → GET /b", "[1.000s] #1 ← 200 OK via a", "[1.000s] #3 → GET /c",
        "[1.000s] #2 ← 200 OK via b", "[1.000s] #3 ← 200 OK via c",
    ]

    /// Runs the scenario through URLSession three times and expects the one transcript each time.
    static func expectOneAtATime(_ level: ScenarioHost.CaptureLevel) async {
        #expect(ScenarioHost.shared.level == level)
        for _ in 0..<3 {
            let result = await ScenarioRunner(driver: Driver(), plan: RunPlan(route: .urlSession)).run(scenario)
            #expect(result.status == .passed, "\(result.explanation)")
            #expect(result.transcript == expected, "\(result.transcript)")
        }
    }

    @Test(.enabled(if: ScenarioHost.shared.level == .full)) func underFullCaptureTheNextAnswerWaitsForWhatTheAppSentInReturn() async {
        await Self.expectOneAtATime(.full)
    }

    /// The probe below, in a test process of its own that captures Swift concurrency only.
    @Test(.enabled(if: TestProcess.isAvailable)) func underConcurrencyOnlyTheNextAnswerWaitsAsUnderFullCapture() throws {
        try TestProcess.expectPasses(
            "HandOverRuleTests/probe",
            environment: [
                ScenarioHost.CaptureLevel.variable: ScenarioHost.CaptureLevel.concurrencyOnly.rawValue, "SCENARIO_HANDOVER_PROBE": "1",
            ])
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SCENARIO_HANDOVER_PROBE"] == "1")) func probe() async {
        await Self.expectOneAtATime(.concurrencyOnly)
    }
}
