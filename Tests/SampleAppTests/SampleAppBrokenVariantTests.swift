import ExampleStackChecks
import Foundation
import SampleAppDriver
import ScenarioKit
import Testing

/// The sample scenarios can fail: each test changes one expectation of a passing scenario to
/// something the app does not do, and the run must report it as failed on both routes.
@Suite struct SampleAppBrokenVariantTests {
    static let routes = RunPlan.Route.allCases

    static func expectation(_ document: [String: Any]) throws -> [String: Any] {
        try #require(document["expect"] as? [String: Any])
    }

    @Test(arguments: routes)
    func expectingTwoBlockedAlertsFails(route: RunPlan.Route) async throws {
        let result = try await SampleAppScenarioTests.corpus.runVariant("blocked-user/concurrent-403s-one-logout-one-alert", route: route) {
            document in
            var expect = try Self.expectation(document)
            let alerts = try #require(expect["alerts"] as? [Any])
            try #require(alerts.count == 1)
            expect["alerts"] = alerts + alerts
            document["expect"] = expect
        }
        #expect(result.status == .failed)
        #expect(result.failures.contains { $0.label.contains("alerts") }, "\(result.failures.map(\.label))")
    }

    @Test(arguments: routes)
    func expectingTwoRefreshesFails(route: RunPlan.Route) async throws {
        let result = try await SampleAppScenarioTests.corpus.runVariant("token-refresh/expired-token-one-shared-refresh", route: route) {
            document in
            var expect = try Self.expectation(document)
            var requests = try #require(expect["requests"] as? [String: Any])
            var counts = try #require(requests["counts"] as? [String: Any])
            try #require(counts["refresh"] as? Int == 1)
            counts["refresh"] = 2
            requests["counts"] = counts
            expect["requests"] = requests
            document["expect"] = expect
        }
        #expect(result.status == .failed)
    }

    @Test(arguments: routes)
    func expectingAShorterBackoffFails(route: RunPlan.Route) async throws {
        let result = try await SampleAppScenarioTests.corpus.runVariant(
            "rate-limit/429-retry-after-delta-seconds-then-success", route: route
        ) { document in
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
    func expectingTheDashboardForAnInactiveUserFails(route: RunPlan.Route) async throws {
        let result = try await SampleAppScenarioTests.corpus.runVariant("startup/inactive-user-at-startup", route: route) { document in
            var expect = try Self.expectation(document)
            var state = try #require(expect["state"] as? [String: Any])
            try #require(state["screen"] as? String == "login")
            state["screen"] = "dashboard"
            expect["state"] = state
            document["expect"] = expect
        }
        #expect(result.status == .failed)
        #expect(result.failures.contains { $0.label.contains("state") }, "\(result.failures.map(\.label))")
    }
}
