import DispatchAppDriver
import ExampleStackChecks
import Foundation
import ScenarioKit
import Testing

/// The Dispatch app scenarios can fail: each test changes one expectation of a scenario to
/// something the app does not do, and the run must report that expectation as failed on both
/// routes (not merely fail for some other reason).
@Suite struct DispatchAppBrokenVariantTests {
    static let routes = RunPlan.Route.allCases

    static func expectation(_ document: [String: Any]) throws -> [String: Any] {
        try #require(document["expect"] as? [String: Any])
    }

    /// The run failed on an assertion whose label names `topic`, with no abort before it.
    static func expectFailedAssertion(_ result: ScenarioResult, about topic: String) {
        #expect(result.status == .failed)
        #expect(result.errorMessage == nil, "the run stopped before its checks: \(result.errorMessage ?? "")")
        #expect(result.failures.contains { $0.label.contains(topic) }, "\(result.failures.map(\.label))")
    }

    @Test(arguments: routes)
    func expectingTwoBlockedAlertsFails(route: RunPlan.Route) async throws {
        let result = try await DispatchAppScenarioTests.corpus.runVariant("blocked-user/concurrent-403s-one-logout-one-alert", route: route)
        { document in
            var expect = try Self.expectation(document)
            let alerts = try #require(expect["alerts"] as? [Any])
            try #require(alerts.count == 1)
            expect["alerts"] = alerts + alerts
            document["expect"] = expect
        }
        Self.expectFailedAssertion(result, about: "alerts")
    }

    @Test(arguments: routes)
    func expectingTwoRefreshesFails(route: RunPlan.Route) async throws {
        let result = try await DispatchAppScenarioTests.corpus.runVariant("token-refresh/expired-token-one-shared-refresh", route: route) {
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
        Self.expectFailedAssertion(result, about: "requests")
    }

    @Test(arguments: routes)
    func expectingAShorterBackoffFails(route: RunPlan.Route) async throws {
        let result = try await DispatchAppScenarioTests.corpus.runVariant(
            "rate-limit/429-retry-after-delta-seconds-then-success", route: route
        ) { document in
            var steps = try #require(document["steps"] as? [[String: Any]])
            var outcome = try #require(steps[0]["expect"] as? [String: Any])
            var value = try #require(outcome["value"] as? [String: Any])
            try #require(value["elapsed"] as? Int == 3)
            value["elapsed"] = 2
            outcome["value"] = value
            steps[0]["expect"] = outcome
            document["steps"] = steps
        }
        #expect(result.status == .failed)
        #expect(result.errorMessage == nil, "the run stopped before its checks: \(result.errorMessage ?? "")")
    }

    @Test(arguments: routes)
    func expectingNoAlertForAnHourLongRetryAfterFails(route: RunPlan.Route) async throws {
        let result = try await DispatchAppScenarioTests.corpus.runVariant("rate-limit/429-one-hour-retry-after-is-surfaced", route: route) {
            document in
            var expect = try Self.expectation(document)
            try #require((expect["alerts"] as? [Any])?.count == 1)
            expect["alerts"] = [Any]()
            document["expect"] = expect
        }
        Self.expectFailedAssertion(result, about: "alerts")
    }

    @Test(arguments: routes)
    func expectingTheDashboardForAnInactiveUserFails(route: RunPlan.Route) async throws {
        let result = try await DispatchAppScenarioTests.corpus.runVariant("startup/inactive-user-at-startup", route: route) { document in
            var expect = try Self.expectation(document)
            var state = try #require(expect["state"] as? [String: Any])
            try #require(state["screen"] as? String == "login")
            state["screen"] = "dashboard"
            expect["state"] = state
            document["expect"] = expect
        }
        Self.expectFailedAssertion(result, about: "state")
    }
}
