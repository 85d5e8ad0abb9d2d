import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// What an exchange promises besides matching: `times`, `after`, `release`, `latency`, its
/// fault, and the 404 for requests nothing matches.
@Suite struct ExchangeRuleTests {
    private func send(_ path: String, expect: String) -> String {
        #"{ "do": "send", "with": { "path": "\#(path)" }, "expect": \#(expect) }"#
    }

    @Test func timesNServesNRequestsThenTheNextExchangeAnswers() async throws {
        let result = try await Rules.run(
            exchanges: #"""
                { "id": "twice", "request": { "path": "/x" }, "response": { "status": 200 }, "times": 2 },
                { "id": "then", "request": { "path": "/x" }, "response": { "status": 503 } }
                """#,
            steps: [
                send("/x", expect: #"{ "value": { "status": 200 } }"#), send("/x", expect: #"{ "value": { "status": 200 } }"#),
                send("/x", expect: #"{ "value": { "status": 503 } }"#),
            ].joined(separator: ","))
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func afterWaitsForTheOtherExchange() async throws {
        let result = try await Rules.run(
            exchanges: #"""
                { "id": "late", "request": { "path": "/x" }, "response": { "status": 201 }, "after": "early" },
                { "id": "early", "request": { "path": "/x" }, "response": { "status": 200 } }
                """#,
            steps: send("/x", expect: #"{ "value": { "status": 200 } }"#) + "," + send("/x", expect: #"{ "value": { "status": 201 } }"#))
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func atStepHoldsTheAnswerUntilThatStepNotAnEarlierOne() async throws {
        let result = try await Rules.run(
            exchanges: #"{ "id": "held", "request": { "path": "/x" }, "response": { "status": 200 }, "release": { "atStep": "go" } }"#,
            steps: #"""
                { "start": "send", "with": { "path": "/x" }, "as": "bg" },
                { "name": "other", "advance": "10s" },
                { "name": "go", "advance": "10s" },
                { "await": "bg", "expect": { "value": { "status": 200, "at": "10.000s" } } }
                """#)
        #expect(result.status == .passed, "\(result.failureText) \(result.transcript)")
    }

    @Test func aRequestAfterItsReleaseStepIsAnsweredAtOnce() async throws {
        let result = try await Rules.run(
            exchanges: #"{ "id": "held", "request": { "path": "/x" }, "response": { "status": 200 }, "release": { "atStep": "go" } }"#,
            steps: #"{ "name": "go", "advance": "1s" },"# + send("/x", expect: #"{ "value": { "status": 200, "at": "1.000s" } }"#))
        #expect(result.status == .passed, "\(result.failureText) \(result.errorMessage ?? "")")
    }

    @Test func whenPendingReleasesOnlyWhenAllNAreWaiting() async throws {
        let exchanges =
            #"{ "id": "burst", "request": { "path": "/x" }, "response": { "status": 200 }, "times": 3, "release": { "whenPending": 3 } }"#
        let all = try await Rules.run(
            exchanges: exchanges,
            steps: #"{ "do": "send", "with": { "path": "/x" }, "parallel": 3, "expect": { "value": { "status": 200 } } }"#)
        #expect(all.status == .passed, "\(all.failureText) \(all.errorMessage ?? "")")
        // Two of three never reach the count: the answers stay held and the run is stuck.
        let two = try await Rules.run(
            exchanges: exchanges,
            steps: #"{ "do": "send", "with": { "path": "/x" }, "parallel": 2, "expect": { "value": { "status": 200 } } }"#)
        #expect(two.status == .error)
        #expect(two.errorMessage?.contains("held by exchange 'burst'") == true, "\(two.errorMessage ?? "")")
    }

    @Test func latencyDelaysTheAnswerFromWhenTheRequestArrived() async throws {
        let result = try await Rules.run(
            exchanges: #"{ "id": "slow", "request": { "path": "/x" }, "response": { "status": 200 }, "latency": "30s" }"#,
            steps: #"{ "advance": "60s" },"# + send("/x", expect: #"{ "value": { "status": 200, "at": "90.000s" } }"#))
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test func aRequestNothingMatchesIsAnswered404() async throws {
        let result = try await Rules.run(
            steps: send("/nobody", expect: #"{ "value": { "status": 404 } }"#), extra: #""relax": { "unmatchedRequests": true }"#)
        #expect(result.status == .passed, "\(result.failureText)")
    }

    @Test(arguments: ["notConnectedToInternet", "networkConnectionLost", "timedOut"])
    func aFaultReachesTheStackWithItsCode(code: String) async throws {
        let result = try await Rules.run(
            exchanges: #"{ "id": "down", "request": { "path": "/x" }, "fault": "\#(code)" }"#,
            steps: send("/x", expect: #"{ "error": "\#(code)" }"#))
        #expect(result.status == .passed, "\(result.failureText)")
    }
}
