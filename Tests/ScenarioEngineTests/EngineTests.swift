import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

@Suite struct VirtualClockTests {
    @Test func sleepersWakeInDeadlineOrderNotRegistrationOrder() async throws {
        let scenario = Build.scenario(steps: [
            Build.step(
                .group(
                    [Build.call("sleep", ["seconds": 30]), Build.call("sleep", ["seconds": 5]), Build.call("sleep", ["seconds": 20])],
                    expects: [.value(["at": "30.000s"]), .value(["at": "5.000s"]), .value(["at": "20.000s"])]))
        ])
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .passed, "\(result.failures)")
        #expect(result.virtualTime == .seconds(30))
    }

    @Test func anHourOfVirtualTimeIsOneWakeOfTheClock() async {
        let scenario = Build.scenario(steps: [
            Build.step(.perform(Build.call("sleep", ["seconds": 3600]), parallel: 1, expect: .value(["at": "3600.000s"])))
        ])
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .passed)
        #expect(result.virtualTime == .seconds(3600))
        // Time jumps to the deadline: a handful of jobs, not one per second. (How fast that is
        // in wall time is the benchmark's business, never a test's.)
        #expect(result.jobs < 20, "\(result.jobs) jobs")
    }

    @Test func dateFollowsVirtualTime() {
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 1000))
        _ = clock.wakeDue(movingTo: .init(offset: .seconds(90)))
        #expect(clock.date == Date(timeIntervalSince1970: 1090))
    }

    @Test func timersFireWhenTimeReachesThem() {
        let clock = VirtualClock(start: Scenario.defaultClockStart)
        let fired = ResultBox<Int>()
        clock.schedule(at: .init(offset: .seconds(5)), label: "t") { fired.set(5) }
        #expect(clock.wakeDue(movingTo: .init(offset: .seconds(4))) == 0)
        #expect(fired.value == nil)
        #expect(clock.wakeDue(movingTo: .init(offset: .seconds(5))) == 1)
        #expect(fired.value == 5)
    }
}

@Suite struct ScriptedBackendTests {
    @Test func firstMatchInDeclarationOrderThenTheNextWhenUsedUp() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("first", path: "/x", status: 401), Build.exchange("then", path: "/x", status: 200)],
            steps: [
                Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: .value(["status": 401]))),
                Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: .value(["status": 200]))),
            ],
            expect: Expectations(requests: RequestExpectations(total: 2, counts: [("first", 1), ("then", 1)])))
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .passed, "\(result.failures)")
    }

    @Test func afterMakesAnExchangeWaitForAnother() async {
        let scenario = Build.scenario(
            exchanges: [
                Build.exchange("late", path: "/x", status: 201, after: ["early"]),
                Build.exchange("early", path: "/x", status: 200),
            ],
            steps: [
                Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: .value(["status": 200]))),
                Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: .value(["status": 201]))),
            ])
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .passed, "\(result.failures)")
    }

    @Test func whenPendingHoldsUntilAllAreWaitingThenReleasesTogether() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("held", path: "/x", status: 403, times: 5, release: .whenPending(5))],
            steps: [Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 5, expect: .value(["status": 403])))],
            expect: Expectations(requests: RequestExpectations(total: 5)))
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .passed, "\(result.failures)")
        // All five arrive before any answer goes out: four are held, the fifth releases them.
        let kinds = result.transcript.map { line in ["→", "←", "⏸", "▶"].first { line.contains($0) } ?? "?" }
        #expect(
            kinds == ["→", "⏸", "→", "⏸", "→", "⏸", "→", "⏸", "→"] + Array(repeating: "▶", count: 4) + Array(repeating: "←", count: 5),
            "\(result.transcript)")
    }

    @Test func latencyIsVirtual() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("slow", path: "/x", latency: .seconds(90))],
            steps: [Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: .value(["status": 200, "at": "90.000s"])))])
        // Through URLSession the backend parks the answer from another thread; the runner must
        // find the latency timer on the clock when it learns of the hold (once a race here).
        for route in RunPlan.Route.allCases {
            for _ in 0..<20 {
                let result = await ScenarioRunner(driver: TestDriver(), plan: RunPlan(route: route)).run(scenario)
                #expect(result.status == .passed, "\(route): \(result.errorMessage ?? "") \(result.failures)")
            }
        }
    }

    @Test(arguments: [TransportError.Code.timedOut, .notConnectedToInternet, .networkConnectionLost, .cancelled])
    func faultsReachTheStackAsTransportErrors(code: TransportError.Code) async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("down", path: "/x", fault: code)],
            steps: [Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: .error(.string(code.rawValue))))])
        for route in RunPlan.Route.allCases {
            let result = await ScenarioRunner(driver: TestDriver(), plan: RunPlan(route: route)).run(scenario)
            #expect(result.status == .passed, "\(route): \(result.failures) \(result.errorMessage ?? "")")
        }
    }

    @Test func unmatchedRequestsAndUnusedExchangesFailUnlessRelaxed() async {
        let steps = [Build.step(.perform(Build.call("get", ["path": "/nobody"]), parallel: 1, expect: .value(["status": 404])))]
        let exchanges = [Build.exchange("spare", path: "/x")]
        let strict = await ScenarioRunner(driver: TestDriver()).run(Build.scenario(exchanges: exchanges, steps: steps))
        #expect(strict.status == .failed)
        #expect(Set(strict.failures.map(\.label)) == ["unmatched requests", "unused exchanges"])
        // The transcript stops at the first divergence: the unmatched request.
        #expect(
            strict.transcript == [
                "[0.000s] #1 → GET /nobody",
                "[0.000s] #1 ✗ no exchange matches; answered 404; nearest: 'spare' (path: wants /x, got /nobody)",
            ])
        let relaxed = await ScenarioRunner(driver: TestDriver()).run(
            Build.scenario(exchanges: exchanges, steps: steps, relax: Relaxations(unmatchedRequests: true, unusedExchanges: true)))
        #expect(relaxed.status == .passed, "\(relaxed.failures)")
    }

    @Test(arguments: [
        ("/users/{id}/block", "/users/42/block", true), ("/users/{id}/block", "/users//block", false),
        ("/users/{id}", "/users/42/block", false), ("/files/*", "/files/a/b", true), ("/files/*", "/other", false),
    ])
    func pathPatterns(pattern: String, path: String, matches: Bool) {
        #expect(PathRule.pattern(pattern).matches(path) == matches)
    }
}

@Suite struct RunnerTests {
    @Test func atStepReleaseLetsABackgroundActionFinishLater() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("gate", path: "/x", release: .atStep("open"))],
            steps: [
                Build.step(.start(Build.call("get", ["path": "/x"]), handle: "req")),
                Build.step(.perform(Build.call("bump"), parallel: 1, expect: .value(["count": 1]))),
                Build.step(.await(handle: "req", expect: .value(["status": 200])), name: "open"),
            ],
            expect: Expectations(timeline: ["got 200"]))
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .passed, "\(result.failures) \(result.errorMessage ?? "")")
    }

    @Test func aStepThatCanNeverFinishSaysWhatItWaitsOn() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("gate", path: "/x", release: .atStep("later"))],
            steps: [
                Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: nil)),
                Build.step(.runUntilIdle, name: "later"),
            ])
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .error)
        #expect(result.errorMessage?.contains("held by exchange 'gate' (released at step 'later')") == true, "\(result.errorMessage ?? "")")
    }

    /// Copies of one action are named once, with their number.
    @Test func stuckCopiesOfAnActionAreNamedOnce() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("gate", path: "/x", times: 3, release: .atStep("later"))],
            steps: [
                Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 3, expect: nil)),
                Build.step(.runUntilIdle, name: "later"),
            ])
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.errorMessage?.hasPrefix("stuck: 'get' (×3) can never finish") == true, "\(result.errorMessage ?? "")")
    }

    @Test func anActionAwaitingSomethingOutsideTheScenarioIsReportedNotHung() async {
        let result = await ScenarioRunner(driver: TestDriver()).run(
            Build.scenario(steps: [Build.step(.perform(Build.call("hang"), parallel: 1, expect: nil))]))
        #expect(result.status == .error)
        #expect(result.errorMessage?.contains("can never finish") == true)
    }

    @Test func aBackgroundPollerDoesNotKeepTheStepFromFinishingAndTheTimeLimitEndsAWait() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("gate", path: "/x", release: .atStep("never"))],
            steps: [
                Build.step(.perform(Build.call("poll"), parallel: 1, expect: .ok)),
                Build.step(.advance(.seconds(35))),
                Build.step(.check(Expectations(state: ["polls": 3]))),
                Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: nil)),
                Build.step(.runUntilIdle, name: "never"),
            ],
            timeLimit: .seconds(120))
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.steps.count == 3, "\(result.steps.map(\.label))")
        #expect(result.steps.allSatisfy { $0.passed })
        #expect(result.status == .error)
        #expect(result.errorMessage?.contains("time limit (120.000s") == true, "\(result.errorMessage ?? "")")
    }

    @Test func stateMismatchShowsAFocusedDiffAndNullMeansAbsent() async {
        let scenario = Build.scenario(
            steps: [Build.step(.perform(Build.call("bump"), parallel: 1, expect: nil))],
            expect: Expectations(state: ["count": 2, "secret": nil], alerts: [["title": "Bumped"]]))
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .failed)
        let failure = result.failures.first
        #expect(failure?.label == "state")
        #expect(failure?.message == "state.count: expected 2, got 1")
        #expect(failure?.diff?.contains("-   \"count\": 2") == true)
        #expect(failure?.diff?.contains("+   \"count\": 1") == true)
        #expect(failure?.actual?.contains("polls") == false, "the diff shows only keys the expectation names")
    }

    @Test func parallelCopiesAreEachChecked() async {
        let scenario = Build.scenario(steps: [Build.step(.perform(Build.call("bump"), parallel: 3, expect: .value(["count": 1])))])
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.failures.map(\.label) == ["copy 2 of 3", "copy 3 of 3"])
        #expect(result.failures.first?.summary == "copy 2 of 3: count: expected 1, got 2")
    }

    @Test func requestLogChecksOrderHeadersAndCounts() async {
        let exchanges = [Build.exchange("a", path: "/a", times: 2), Build.exchange("b", path: "/b")]
        let steps = [
            Build.step(.perform(Build.call("get", ["path": "/a"]), parallel: 2, expect: .ok)),
            Build.step(.perform(Build.call("get", ["path": "/b"]), parallel: 1, expect: .ok)),
        ]
        let good = RequestExpectations(log: [
            RequestLogPattern(count: 2, exchange: "a", method: "get"), RequestLogPattern(path: "/b", headers: [("Authorization", nil)]),
        ])
        let passing = await ScenarioRunner(driver: TestDriver()).run(
            Build.scenario(exchanges: exchanges, steps: steps, expect: Expectations(requests: good)))
        #expect(passing.status == .passed, "\(passing.failures)")
        let bad = RequestExpectations(log: [RequestLogPattern(exchange: "b"), RequestLogPattern(count: 2, exchange: "a")])
        let failing = await ScenarioRunner(driver: TestDriver()).run(
            Build.scenario(exchanges: exchanges, steps: steps, expect: Expectations(requests: bad)))
        #expect(failing.failures.first?.message == "request #1 does not fit log entry 1: served by 'a', expected 'b'")
        #expect(failing.failures.first?.actual == "2 × via a\nvia b", "actual requests show the fields the entries name")
    }

    @Test func secretsInTheScenarioNeverReachTheResult() async {
        let exchanges = [
            Build.exchange("login", path: "/x", json: ["access_token": "tok-SECRET-1"], headers: ["Set-Cookie": "sid=cookie-SECRET-2"])
        ]
        let scenario = Build.scenario(
            exchanges: exchanges,
            steps: [Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 1, expect: .value(["status": 500])))],
            given: ["session": ["accessToken": "given-SECRET-3"]])
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        let text = result.transcript.joined() + result.failures.map { "\($0.message)\($0.expected ?? "")\($0.actual ?? "")" }.joined()
        #expect(result.status == .failed)
        #expect(!text.contains("SECRET"))
        #expect(text.contains("‹redacted#"))
        let revealed = await ScenarioRunner(driver: TestDriver(), plan: RunPlan(revealSecrets: true)).run(scenario)
        #expect(revealed.transcript.joined().contains("tok-SECRET-1"))
    }

    @Test func theSameScenarioGivesTheSameTranscriptEveryRun() async {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("held", path: "/x", status: 403, times: 8, latency: .milliseconds(250), release: .whenPending(8))],
            steps: [
                Build.step(.perform(Build.call("poll"), parallel: 1, expect: .ok)),
                Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 8, expect: .value(["status": 403]))),
                Build.step(.advance(.seconds(25))),
            ])
        let first = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(first.status == .passed, "\(first.failures)")
        for _ in 0..<30 {
            let again = await ScenarioRunner(driver: TestDriver()).run(scenario)
            #expect(again.transcript == first.transcript)
        }
    }
}

@Suite struct JSONMatchTests {
    @Test(
        arguments: [
            (["a": 1, "b": 2] as JSONValue, ["a": 1] as JSONValue, true),
            (["a": 1], ["a": 2], false),
            // `{}` says "empty": a member, even a null one, breaks it.
            (["a": ["b": nil]], ["a": [:]], false),
            (["a": [:]], ["a": [:]], true),
            (["a": nil], ["a": 1], false),
            ([1, 2], [1, 2, 3], false),
            ([["x": 1, "y": 2]], [["x": 1]], true),
            (1.0, 1, true),
        ] as [(JSONValue, JSONValue, Bool)])
    func subsetRule(actual: JSONValue, expected: JSONValue, holds: Bool) {
        #expect(JSONMatch.mismatches(expected: expected, actual: actual).isEmpty == holds)
    }

    @Test func redactorLeavesWordsThatMerelyContainASecret() {
        let redactor = SecretRedactor(secrets: ["A1b2"])
        #expect(redactor.redact("Bearer A1b2, A1b20, XA1b2, A1b2.") == "Bearer ‹redacted#1›, A1b20, XA1b2, A1b2.")
    }

    @Test func redactorJudgesNeighboursBeyondASCII() {
        let redactor = SecretRedactor(secrets: ["tok-Q7x9", "pässwört-9"])
        // Letters and combining marks continue a word; arrows, quotes and spaces do not.
        #expect(redactor.redact("étok-Q7x9 tok-Q7x9é tok-Q7x9\u{301}") == "étok-Q7x9 tok-Q7x9é tok-Q7x9\u{301}")
        #expect(redactor.redact("→tok-Q7x9← «tok-Q7x9» 𝄞tok-Q7x9") == "→‹redacted#1›← «‹redacted#1›» 𝄞‹redacted#1›")
        // A secret beyond ASCII is found too, in either Unicode normal form.
        #expect(redactor.redact("pw pässwört-9!") == "pw ‹redacted#2›!")
        #expect(redactor.redact("pw pa\u{308}sswo\u{308}rt-9") == "pw ‹redacted#2›")
    }

    /// Many secrets sharing a long prefix (a capture's 200 bearer tokens) are each found where
    /// they stand, the longest one that fits first, as they are written and escaped alike.
    @Test func redactorFindsEachOfManySecretsThatShareAPrefix() {
        let tokens = (0..<200).map { "acc-live-\(String(1000 + $0).dropFirst())XyZ" }
        let redactor = SecretRedactor(secrets: tokens + ["acc-live-000XyZ-extended", "acc-l"])
        #expect(redactor.redact("Bearer acc-live-007XyZ;") == "Bearer ‹redacted#8›;")
        #expect(redactor.redact("acc-live-199XyZ acc-live-000XyZ-extended") == "‹redacted#200› ‹redacted#201›")
        // Inside a longer word a secret of 12 bytes or more is still found; the short one is not.
        #expect(redactor.redact("xacc-live-042XyZx acc-lx") == "x‹redacted#43›x acc-lx")
        // Near an escape, and escaped: each form is found.
        #expect(redactor.redact("a=acc-live-001XyZ&b=acc%2Dlive-002XyZ") == "a=‹redacted#2›&b=‹redacted#3›")
        #expect(redactor.redact(#"{\"t\":\"acc-live-003XyZ\"}"#) == #"{\"t\":\"‹redacted#4›\"}"#)
        // In base64 at any alignment of a larger blob.
        for padding in ["", "x", "xy"] {
            let blob = Data((padding + "tok acc-live-150XyZ end").utf8).base64EncodedString()
            #expect(redactor.redact(blob).contains("‹redacted#151›"), "\(blob)")
        }
        #expect(redactor.redact("acc-live-2000XyZ acc-live-20XyZ") == "acc-live-2000XyZ acc-live-20XyZ")
    }

    @Test func secretsTooShortToBeCredentialsMaskNothing() {
        let redactor = SecretRedactor(secrets: ["1", "ab3"])
        #expect(redactor.redact("step 1 of 3, ab3") == "step 1 of 3, ab3")
    }

    @Test func distinctSecretsGetDistinctNumbersInTheOrderGiven() {
        let redactor = SecretRedactor(secrets: ["old-token", "new-token", "old-token"])
        #expect(redactor.redact("new-token then old-token") == "‹redacted#2› then ‹redacted#1›")
    }

    @Test func diffMarksExpectedAndActualLines() {
        #expect(TextDiff.lines(expected: "a\nb\nc", actual: "a\nx\nc") == "  a\n- b\n+ x\n  c")
        #expect(TextDiff.lines(expected: "same", actual: "same").isEmpty)
    }
}

/// Every run is bounded: a scenario built to run forever stops at a limit it names.
@Suite struct RunLimitTests {
    @Test func aTimerThatTicksForeverMeetsTheWakeLimit() async {
        var scenario = Build.scenario(steps: [
            Build.step(.perform(Build.call("poll"), parallel: 1, expect: .ok)), Build.step(.advance(.seconds(3600 * 24 * 365 * 292))),
        ])
        scenario.limits.wakes = 500
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .error)
        #expect(result.errorMessage?.contains("woke the clock 500 times") == true, "\(result.errorMessage ?? "")")
        #expect(result.errorMessage?.contains("raise limits.wakes") == true)
        #expect(result.transcript.count <= Transcript.shownLimit + 1)
    }

    @Test func theSameScenarioWithinItsLimitPasses() async {
        var scenario = Build.scenario(steps: [
            Build.step(.perform(Build.call("poll"), parallel: 1, expect: .ok)), Build.step(.advance(.seconds(10 * 400))),
        ])
        scenario.limits.wakes = 500
        let result = await ScenarioRunner(driver: TestDriver()).run(scenario)
        #expect(result.status == .passed, "\(result.errorMessage ?? "")")
    }
}
