import Foundation
import ScenarioKit
import SessionKitDriver
import Testing

/// Hand-made traces shaped like each exporter import into scenarios that load, run against
/// SessionKit, reproduce the captured behaviour, and carry none of the capture's secrets.
@Suite struct TraceImportTests {
    static let traces = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/traces")

    /// Each hand-made fixture with the secrets written into it.
    static let handmade: [(file: String, secrets: [String])] = [
        ("charles-concurrent-403s", ["acc-charles-Q7w1", "s3ss10n-charles-88"]),
        (
            "chrome-expired-token-refresh",
            [
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEwMCIsImV4cCI6MX0.c2lnbmF0dXJlLW9sZC10b2tlbg",
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEwMCIsImV4cCI6OX0.c2lnbmF0dXJlLW5ldy10b2tlbg", "rt-chrome-Zk81Qp", "rt-chrome-Wq27Ld",
            ]
        ),
        (
            "mitmproxy-login-then-feed",
            [
                "hunter2-Secret!", "mitm-cookie-77AA", "rt-mitm-Hh55",
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEwMCIsImV4cCI6MX0.c2lnbmF0dXJlLW9sZC10b2tlbg",
            ]
        ),
        ("proxyman-429-retry-after", ["ak_live_proxyman_5521", "acc-proxyman-T5"]),
        ("xcode-inactive-user-at-startup", ["acc-xcode-inactive-31"]),
    ]

    static func read(_ path: String) throws -> HARLog {
        let url = traces.appendingPathComponent(path)
        return try HARReader(file: url.lastPathComponent).read(try Data(contentsOf: url))
    }

    /// Imports (redacted), lets `finish` complete the draft as an author would, loads and runs.
    static func importAndRun(
        _ path: String, finish: (inout JSONObject) -> Void = { _ in }
    ) async throws -> (document: String, result: ScenarioResult) {
        let driver = ScenarioSuiteTests.driver
        let log = TraceRedactor().redact(try read(path)).log
        let imported = try TraceImporter(spec: driver.traceImport).makeScenario(from: log, file: path)
        var object = try #require(imported.scenario.objectValue)
        finish(&object)
        let text = JSONValue.object(object).prettyText
        let loaded = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
            .load(data: Data(text.utf8), file: path, id: path)
        let scenario = try loaded.get()
        return (text, await ScenarioRunner(driver: driver).run(scenario))
    }

    static func setExpect(_ object: inout JSONObject, _ key: String, _ value: JSONValue) {
        var expect = object["expect"]?.objectValue ?? JSONObject()
        expect[key] = value
        object["expect"] = .object(expect)
    }

    @Test(arguments: handmade.map(\.file))
    func eachExporterShapeImportsAndRunsClean(_ file: String) async throws {
        let (_, result) = try await Self.importAndRun("handmade/\(file).har")
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test(arguments: handmade)
    func noSecretOfTheCaptureAppearsInTheScenarioOrTheRun(_ fixture: (file: String, secrets: [String])) async throws {
        let (document, result) = try await Self.importAndRun("handmade/\(fixture.file).har")
        let raw = try String(contentsOf: Self.traces.appendingPathComponent("handmade/\(fixture.file).har"), encoding: .utf8)
        let redactedHAR = TraceRedactor().redact(try Self.read("handmade/\(fixture.file).har")).log.harDocument().prettyText
        for secret in fixture.secrets {
            #expect(raw.contains(secret), "the fixture should hold \(secret)")
            #expect(!document.contains(secret), "\(secret) leaked into the scenario")
            #expect(!redactedHAR.contains(secret), "\(secret) leaked into the redacted trace")
            #expect(!result.transcriptText.contains(secret), "\(secret) leaked into the transcript")
        }
    }

    @Test func theConcurrent403BurstGivesOneAlertAndOneLogout() async throws {
        let (document, result) = try await Self.importAndRun("handmade/charles-concurrent-403s.har") { object in
            Self.setExpect(&object, "alerts", [["title": "Account Blocked"]])
            Self.setExpect(&object, "state", ["auth": "unauthenticated", "screen": "login"])
        }
        #expect(result.status == .passed, "\(result.explanation)")
        // Out-of-order Charles entries still become one parallel step held until all five wait.
        #expect(document.contains(#""parallel": 5"#))
        #expect(document.contains(#""whenPending": 5"#))
        let twoAlerts = try await Self.importAndRun("handmade/charles-concurrent-403s.har") { object in
            Self.setExpect(&object, "alerts", [["title": "Account Blocked"], ["title": "Account Blocked"]])
        }
        #expect(twoAlerts.result.status == .failed)
    }

    @Test func anExpiredTokenIsRefreshedOnceAndTheRetryIsTheAppsOwn() async throws {
        let (document, result) = try await Self.importAndRun("handmade/chrome-expired-token-refresh.har")
        #expect(result.status == .passed, "\(result.explanation)")
        let scenario = try #require(JSONValue.parse(Data(document.utf8)))
        // One step (the call) and its check; the refresh and the retry are exchanges only (optional:
        // a fixed stack may send them fewer times), and the refused call's success comes again last.
        #expect(scenario["steps"]?.arrayValue?.filter { $0["check"] == nil }.count == 1)
        #expect(
            scenario["exchanges"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [
                "get-feed-401", "post-auth-refresh-200", "get-feed-200", "get-feed-any",
            ])
        // The new token the refresh answer carries is the one the retry sends, under one placeholder.
        let refreshAnswer = scenario["exchanges"]?.arrayValue?[1]["response"]?["json"]?["data"]?["access_token"]?.stringValue
        let retryHeader = scenario["exchanges"]?.arrayValue?[2]["request"]?["headers"]?["Authorization"]?.stringValue
        #expect(refreshAnswer != nil && retryHeader == "Bearer \(refreshAnswer ?? "")")
    }

    @Test func a429WithRetryAfterReplaysTheWaitInVirtualTime() async throws {
        let (document, result) = try await Self.importAndRun("handmade/proxyman-429-retry-after.har") { object in
            guard var steps = object["steps"]?.arrayValue, var first = steps.first?.objectValue else { return }
            first["expect"] = ["error": ["code": "rateLimited", "retryAfter": 120]]
            steps[0] = .object(first)
            object["steps"] = .array(steps)
        }
        #expect(result.status == .passed, "\(result.explanation)")
        // 29.9 s to the cancelled search, then 1 m 30.1 s to the retry: two minutes after the 429.
        #expect(document.contains(#""advance": "29s919ms""#))
        #expect(document.contains(#""advance": "1m30s99ms""#))
        // Proxyman's entry without a response becomes a transport fault.
        #expect(document.contains(#""fault": "networkConnectionLost""#))
        #expect(result.virtualTime >= .seconds(120))
    }

    @Test func anInactiveUserAtStartupIsWipedAndSentToLogin() async throws {
        let (document, result) = try await Self.importAndRun("handmade/xcode-inactive-user-at-startup.har") { object in
            Self.setExpect(&object, "state", ["auth": "unauthenticated", "screen": "login", "tokens": ["access": nil]])
        }
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(document.contains(#""do": "bootstrap""#))
        let stillSignedIn = try await Self.importAndRun("handmade/xcode-inactive-user-at-startup.har") { object in
            Self.setExpect(&object, "state", ["auth": "authenticated"])
        }
        #expect(stillSignedIn.result.status == .failed)
    }

    @Test func aLoginBecomesTheLoginActionAndItsTokenMatchesLaterCalls() async throws {
        let (document, result) = try await Self.importAndRun("handmade/mitmproxy-login-then-feed.har") { object in
            Self.setExpect(&object, "state", ["auth": "authenticated"])
        }
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(document.contains(#""do": "login""#))
        #expect(document.contains(#""password": "redacted-password-1""#))
    }

    /// A password reset sent as a form, signed out: no `Authorization` in the capture, so the step
    /// sends it without credentials and the import replays; without that the call is refused.
    @Test func anUnauthenticatedFormCallReplaysWithoutTheSessionToken() async throws {
        let answer = #"{"success":true,"data":{"message":"sent","reset_method":"email","reset_link_sent":true,"link_expires_in":3600}}"#
        let entry = HARLog.Entry(
            started: Date(timeIntervalSince1970: 1_767_225_600), time: 40,
            request: HARLog.Request(
                method: "POST", url: "https://api.example.com/auth/password/forgot",
                headers: [.init("Content-Type", "application/x-www-form-urlencoded")], body: "email=ana%40example.com",
                mimeType: "application/x-www-form-urlencoded"),
            response: HARLog.Response(status: 200, headers: [.init("Content-Type", "application/json")], body: Data(answer.utf8)))
        let driver = ScenarioSuiteTests.driver
        func replay(_ spec: TraceImportSpec) async throws -> (String, ScenarioResult) {
            let imported = try TraceImporter(spec: spec).makeScenario(
                from: HARLog(creator: "Proxyman", entries: [entry]), file: "reset.har")
            let text = imported.scenario.prettyText
            let scenario = try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(
                data: Data(text.utf8), file: "reset.har", id: "reset"
            ).get()
            return (text, await ScenarioRunner(driver: driver).run(scenario))
        }
        let (document, result) = try await replay(driver.traceImport)
        #expect(document.contains(#""auth": false"#))
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(
            result.transcript.contains { $0.contains("POST /auth/password/forgot") }
                && !result.transcript.contains { $0.contains("Authorization") })
        var withoutFlag = driver.traceImport
        withoutFlag.requestWithoutCredentials = nil
        let (plain, refused) = try await replay(withoutFlag)
        #expect(!plain.contains(#""auth""#))
        #expect(refused.status == .failed && refused.explanation.contains("notAuthenticated"))
    }
}
