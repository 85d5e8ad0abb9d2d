import Foundation
import ScenarioKit
import Testing

/// Traces captured with mitmproxy in front of a local backend (see Tests/Fixtures/traces/README.md):
/// each of the brief's four cases imports, runs against SessionKit and shows the captured behaviour.
@Suite struct CapturedTraceTests {
    /// Every secret the capture's backend handed out or accepted.
    static let secrets = [
        "acc-live-9f3Kq7Wz2LmN", "acc-live-4Hs8Tq1VxPe0",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTEwMCIsImV4cCI6MTc3MjQ0MDAwMH0.b2xkLXNpZ25hdHVyZS1aUTk4",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTEwMCIsImV4cCI6MTc3MjQ0MzYwMH0.bmV3LXNpZ25hdHVyZS1YcDQ0",
        "ref-live-Qm82nVb5Tz", "ref-live-Lk30pWd7Ry",
    ]
    static let cases = ["concurrent-403s", "rate-limit-429", "expired-token-refresh", "inactive-user-at-startup"]

    @Test(arguments: cases)
    func eachCapturedCaseRunsCleanAndHoldsNoSecret(_ name: String) async throws {
        let (document, result) = try await TraceImportTests.importAndRun("mitmproxy/\(name).har")
        #expect(result.status == .passed, "\(result.explanation)")
        for secret in Self.secrets {
            #expect(!document.contains(secret), "\(secret) leaked into the scenario")
            #expect(!result.transcriptText.contains(secret), "\(secret) leaked into the transcript")
        }
    }

    @Test func theCapturedBurstGivesOneAlert() async throws {
        let one = try await TraceImportTests.importAndRun("mitmproxy/concurrent-403s.har") { object in
            TraceImportTests.setExpect(&object, "alerts", [["title": "Account Blocked"]])
            TraceImportTests.setExpect(&object, "state", ["auth": "unauthenticated", "screen": "login"])
        }
        #expect(one.result.status == .passed, "\(one.result.explanation)")
        #expect(one.document.contains(#""parallel": 10"#))
        let none = try await TraceImportTests.importAndRun("mitmproxy/concurrent-403s.har") { object in
            TraceImportTests.setExpect(&object, "alerts", [])
        }
        #expect(none.result.status == .failed)
    }

    @Test func aCaptureOfTheBuggyRunFailsUntilTheBugIsFixed() async throws {
        // The author finishes the imported draft with what should have happened: one alert.
        let (document, _) = try await TraceImportTests.importAndRun("mitmproxy/concurrent-403s.har") { object in
            TraceImportTests.setExpect(&object, "alerts", [["title": "Account Blocked"]])
        }
        let driver = ScenarioSuiteTests.driver
        let scenario = try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
            .load(data: Data(document.utf8), file: "field.json", id: "field").get()
        let buggy = await ScenarioRunner(driver: DoubleAlertDriver(base: driver)).run(scenario)
        #expect(buggy.status == .failed)
        #expect(buggy.failures.map(\.label) == ["alerts"])
        let fixed = await ScenarioRunner(driver: driver).run(scenario)
        #expect(fixed.status == .passed, "\(fixed.explanation)")
    }

    @Test func theCaptured429SurfacesTheWaitAndTheRetrySucceedsAfterIt() async throws {
        let (document, result) = try await TraceImportTests.importAndRun("mitmproxy/rate-limit-429.har") { object in
            guard var steps = object["steps"]?.arrayValue, var first = steps.first?.objectValue else { return }
            first["expect"] = ["error": ["code": "rateLimited", "retryAfter": 61]]
            steps[0] = .object(first)
            object["steps"] = .array(steps)
        }
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(document.contains(#""do": "forgotPassword""#))
        #expect(result.virtualTime >= .seconds(61))
    }

    @Test func theCapturedRefreshHappensOnceForTheOneCall() async throws {
        let (document, result) = try await TraceImportTests.importAndRun("mitmproxy/expired-token-refresh.har")
        #expect(result.status == .passed, "\(result.explanation)")
        let scenario = try #require(JSONValue.parse(Data(document.utf8)))
        // One step (the call) and its check; the refresh and the retry are exchanges only.
        #expect(scenario["steps"]?.arrayValue?.filter { $0["check"] == nil }.count == 1)
        // The refresh is the app's own: optional (a fixed stack may send it fewer times, so the
        // draft counts it nowhere), and the run sent it once.
        #expect(scenario["exchanges"]?.arrayValue?.first { $0["id"] == "post-auth-refresh-200" }?["optional"] == true)
        #expect(result.transcript.filter { $0.contains("→ POST /auth/refresh") }.count == 1, "\(result.transcript)")
    }

    @Test func theCapturedInactiveUserIsSentToLogin() async throws {
        let (_, result) = try await TraceImportTests.importAndRun("mitmproxy/inactive-user-at-startup.har") { object in
            TraceImportTests.setExpect(&object, "state", ["auth": "unauthenticated", "screen": "login", "tokens": ["access": nil]])
        }
        #expect(result.status == .passed, "\(result.explanation)")
    }
}
