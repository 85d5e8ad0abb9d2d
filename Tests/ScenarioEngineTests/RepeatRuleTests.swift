import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// `--repeat N`: every run is compared with the first, transcript and status, and any
/// difference fails the scenario.
@Suite struct RepeatRuleTests {
    /// A stack that behaves differently from one run to the next, in the way `mode` says.
    private struct FlakyDriver: ScenarioDriver {
        /// `body`: the request body names the run; `fewer`: later runs send one request less.
        let mode: String
        let runs = RunCounter()
        var name: String { "Flaky" }
        var actions: [ActionSpec] { [ActionSpec("go", "send requests")] }
        var givenKeys: [GivenSpec] { [] }

        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            FlakySession(context: context, run: runs.next(), mode: mode)
        }
    }

    private actor FlakySession: DriverSession {
        let context: DriverContext
        let run: Int
        let mode: String

        init(context: DriverContext, run: Int, mode: String) {
            self.context = context
            self.run = run
            self.mode = mode
        }

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            let body: JSONValue = mode == "body" ? ["run": .number(Double(run))] : ["run": 1]
            let copies = mode == "fewer" && run > 1 ? 1 : 2
            for _ in 0..<copies {
                _ = try? await context.transport.send(HTTPRequest(method: .post, path: "/x", body: body.data))
            }
            return .value(.null)
        }

        func snapshot() async -> JSONValue { [:] }
        func alerts() async -> [JSONValue] { [] }
        func timeline() async -> [JSONValue] { [] }
    }

    private func scenario() throws -> Scenario {
        let text = Rules.document(
            exchanges:
                #"{ "id": "x", "request": { "path": "/x" }, "response": { "status": 200 }, "times": "unlimited", "optional": true }"#,
            steps: #"{ "do": "go" }"#)
        return try ScenarioLoader(actions: FlakyDriver(mode: "").actions, givenKeys: []).load(
            data: Data(text.utf8), file: "f.json", id: "f"
        )
        .get()
    }

    private func repeated(_ mode: String, times: Int = 3) async throws -> ScenarioResult {
        await ScenarioRunner(driver: FlakyDriver(mode: mode), plan: RunPlan(mode: .repeated(times))).run(try scenario())
    }

    @Test func aSteadyStackPassesEveryRepeat() async throws {
        let result = try await repeated("steady")
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func aRunThatSendsAnotherBodyFailsTheRepeat() async throws {
        let result = try await repeated("body")
        #expect(result.status == .failed)
        #expect(result.failures.first?.message.contains("nondeterministic: run 2 differed from run 1") == true, "\(result.failureText)")
    }

    @Test func aRunThatSendsFewerRequestsFailsTheRepeat() async throws {
        let result = try await repeated("fewer")
        #expect(result.status == .failed)
        #expect(result.failures.first?.message.contains("first differing event") == true, "\(result.failureText)")
    }

    @Test func repeatOnceComparesNothing() async throws {
        let result = try await repeated("body", times: 1)
        #expect(result.status == .passed, "\(result.failureText)")
    }
}
