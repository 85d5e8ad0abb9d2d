import ExampleStackChecks
import Foundation
import ScenarioKit
import Testing
import TwoSessionAppDriver

/// The two-session scenarios can fail: each test changes one expectation of a passing scenario
/// to something the app does not do, and the run must report it as failed on both routes.
@Suite struct TwoSessionAppBrokenVariantTests {
    static let routes = RunPlan.Route.allCases

    /// Edits `document["expect"]`.
    static func editExpect(_ document: inout [String: Any], _ edit: (inout [String: Any]) throws -> Void) throws {
        var expect = try #require(document["expect"] as? [String: Any])
        try edit(&expect)
        document["expect"] = expect
    }

    /// Edits `document["expect"]["requests"]["counts"]`.
    static func editCounts(_ document: inout [String: Any], _ edit: (inout [String: Any]) throws -> Void) throws {
        try editExpect(&document) { expect in
            var requests = try #require(expect["requests"] as? [String: Any])
            var counts = try #require(requests["counts"] as? [String: Any])
            try edit(&counts)
            requests["counts"] = counts
            expect["requests"] = requests
        }
    }

    @Test(arguments: routes)
    func expectingTwoBlockedAlertsFails(route: RunPlan.Route) async throws {
        let result = try await TwoSessionAppScenarioTests.corpus.runVariant(
            "blocked-user/concurrent-403s-one-logout-one-alert", route: route
        ) { document in
            try Self.editExpect(&document) { expect in
                let alerts = try #require(expect["alerts"] as? [Any])
                try #require(alerts.count == 1)
                expect["alerts"] = alerts + alerts
            }
        }
        #expect(result.status == .failed)
        #expect(result.failures.contains { $0.label.contains("alerts") }, "\(result.failures.map(\.label))")
    }

    @Test(arguments: routes)
    func expectingTwoServerLogoutsFails(route: RunPlan.Route) async throws {
        let result = try await TwoSessionAppScenarioTests.corpus.runVariant(
            "blocked-user/concurrent-403s-one-logout-one-alert", route: route
        ) { document in
            try Self.editCounts(&document) { counts in
                try #require(counts["logout"] as? Int == 1)
                counts["logout"] = 2
            }
        }
        #expect(result.status == .failed)
    }

    @Test(arguments: routes)
    func expectingTwoRefreshesFails(route: RunPlan.Route) async throws {
        let result = try await TwoSessionAppScenarioTests.corpus.runVariant("token-refresh/concurrent-401s-one-refresh", route: route) {
            document in
            try Self.editCounts(&document) { counts in
                try #require(counts["refresh"] as? Int == 1)
                counts["refresh"] = 2
            }
        }
        #expect(result.status == .failed)
    }

    @Test(arguments: routes)
    func expectingTheLateRetryWithTheOldTokenFails(route: RunPlan.Route) async throws {
        let result = try await TwoSessionAppScenarioTests.corpus.runVariant(
            "token-refresh/late-401-after-refresh-reuses-the-new-token", route: route
        ) { document in
            try Self.editExpect(&document) { expect in
                var requests = try #require(expect["requests"] as? [String: Any])
                var log = try #require(requests["log"] as? [[String: Any]])
                try #require(log.last?["exchange"] as? String == "inbox-retry")
                log[log.count - 1]["headers"] = ["Authorization": "Bearer acc-ts-late-old"]
                requests["log"] = log
                expect["requests"] = requests
            }
        }
        #expect(result.status == .failed)
        #expect(result.failures.contains { $0.label.contains("requests") }, "\(result.failures.map(\.label))")
    }

    @Test(arguments: routes)
    func expectingAShorterBackoffFails(route: RunPlan.Route) async throws {
        let result = try await TwoSessionAppScenarioTests.corpus.runVariant("rate-limit/429-retry-after-then-success", route: route) {
            document in
            var steps = try #require(document["steps"] as? [[String: Any]])
            var outcome = try #require(steps[0]["expect"] as? [String: Any])
            var value = try #require(outcome["value"] as? [String: Any])
            try #require(value["elapsed"] as? Int == 5)
            value["elapsed"] = 4
            outcome["value"] = value
            steps[0]["expect"] = outcome
            document["steps"] = steps
        }
        #expect(result.status == .failed)
    }

    @Test(arguments: routes)
    func expectingNoAlertForAnHourLongWaitFails(route: RunPlan.Route) async throws {
        let result = try await TwoSessionAppScenarioTests.corpus.runVariant("rate-limit/429-one-hour-retry-after-is-an-alert", route: route)
        { document in
            try Self.editExpect(&document) { expect in expect["alerts"] = [Any]() }
        }
        #expect(result.status == .failed)
        #expect(result.failures.contains { $0.label.contains("alerts") }, "\(result.failures.map(\.label))")
    }

    @Test(arguments: routes)
    func expectingTheDashboardForAnInactiveAccountFails(route: RunPlan.Route) async throws {
        let result = try await TwoSessionAppScenarioTests.corpus.runVariant("startup/inactive-account-at-startup", route: route) {
            document in
            try Self.editExpect(&document) { expect in
                var state = try #require(expect["state"] as? [String: Any])
                try #require(state["screen"] as? String == "login")
                state["screen"] = "dashboard"
                expect["state"] = state
            }
        }
        #expect(result.status == .failed)
        #expect(result.failures.contains { $0.label.contains("state") }, "\(result.failures.map(\.label))")
    }
}
