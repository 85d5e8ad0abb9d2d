import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Engine behaviour that a code review found wrong once, pinned so it stays right.
@Suite struct EngineReviewRegressionTests {
    @Test func aCancelledParkedRequestDoesNotHideTheNextOne() {
        let work = OutsideWork(changed: {})
        let first = work.begin()
        work.park(first)  // the backend holds its answer
        #expect(!work.isAway)
        work.end(first)  // the caller gave up; its answer is still parked
        let second = work.begin()
        #expect(work.isAway, "a new request in flight must keep the app from looking idle")
        work.end(second)
        #expect(!work.isAway)
    }

    @Test func longTokensAreMaskedBeforeLinesAreCut() async {
        let token = String(repeating: "tok9", count: 150)
        let scenario = Build.scenario(
            exchanges: [Build.exchange("login", path: "/x", json: ["access_token": .string(token)])],
            steps: [Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: .ok))])
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .passed)
        #expect(!result.transcriptText.contains("tok9tok9"), "no part of the token may survive")
    }

    @Test func secretValuesAreSecretWholeAndInQueriesAndForms() {
        #expect(SecretRedactor.secrets(in: ["password": "correct horse staple"]).contains("correct horse staple"))
        #expect(SecretRedactor.secrets(in: ["code": 123456]) == ["123456"])
        #expect(SecretRedactor.secrets(inQuery: [("token", "q-secret"), ("page", "2")]) == ["q-secret"])
        #expect(SecretRedactor.secrets(inForm: "email=a%40b.c&password=p%20w") == ["p w"])
    }

    @Test func theTimeLimitCountsEachWaitNotTheClock() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("slow", path: "/x", latency: .seconds(1))],
            steps: [
                Build.step(.advance(.seconds(25 * 3600))),
                Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: .value(["status": 200]))),
            ])
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .passed, "\(result.errorMessage ?? "")")
    }

    @Test func anUnawaitedAnswerOnLatencyDoesNotHoldUpTheEndOfTheRun() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("slow", path: "/x", latency: .seconds(30))],
            steps: [Build.step(.start(Build.call("get", ["path": "/x"]), handle: "never-awaited"))],
            relax: Relaxations(unusedExchanges: true))
        for route in RunPlan.Route.allCases {
            let result = await ScenarioRunner(driver: TestDriver(), plan: RunPlan(route: route)).run(scenario)
            #expect(result.status == .passed, "\(route): \(result.errorMessage ?? "")")
            // The held answer is dropped at the end: time never reaches its latency.
            #expect(result.virtualTime < .seconds(30), "\(route)")
        }
    }

    @Test func aHugeLogCountFailsQuicklyInsteadOfCounting() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("a", path: "/a")],
            steps: [Build.step(.perform(Build.call("get", ["path": "/a"]), parallel: 1, expect: .ok))],
            expect: Expectations(requests: RequestExpectations(log: [RequestLogPattern(count: 10_000_000_000, exchange: "a")])))
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.failures.first?.message == "the log ends after 1 request(s); entry 1 expects more")
    }

    @Test func parallelHasACeiling() {
        let json = #"{"name":"n","description":"d","steps":[{"do":"bump","parallel":1001}]}"#
        let loaded = ScenarioLoader(actions: TestDriver().actions, givenKeys: []).load(data: Data(json.utf8), file: "p.json", id: "p")
        guard case .failure(let failure) = loaded else {
            Issue.record("parallel 1001 loaded")
            return
        }
        #expect(failure.issues.first?.message == "'parallel' must be an integer from 1 to 1000; got 1001")
    }
}
