import Foundation
import ScenarioKit
import SessionKitDriver
import Testing

/// Scenarios/invariants.json on real runs: the corpus keeps it, and a planted bug breaks it with
/// no expectation in the way.
@Suite struct InvariantRunTests {
    static let driver = SessionKitDriver()

    private func load(_ id: String) throws -> Scenario {
        let path = ScenarioSuiteTests.root + "/" + id + ".json"
        return try ScenarioLoader(actions: Self.driver.actions, givenKeys: Self.driver.givenKeys).load(contentsOf: path, id: id).get()
    }

    @Test func theCorpusIsGovernedByTheInvariantFile() throws {
        let scenario = try load("blocked-user/concurrent-403s-log-out-once")
        #expect(scenario.invariants.contains { $0.id == "account-blocked-alert-once-per-blocked-session" })
        #expect(scenario.invariants.allSatisfy { $0.location.file.hasSuffix("Scenarios/invariants.json") })
    }

    @Test func aDoubleAlertBreaksTheInvariantWithEveryExpectationLeftOut() async throws {
        let scenario = try load("blocked-user/concurrent-403s-log-out-once")
        var options = RunPlan()
        options.invariantsOnly = true
        let fine = await ScenarioRunner(driver: Self.driver, plan: options).run(scenario)
        #expect(fine.status == .passed, "\(fine.failures.map(\.summary))")
        #expect(fine.steps.last?.label == "invariants")

        let buggy = await ScenarioRunner(driver: DoubleAlertDriver(base: Self.driver), plan: options).run(scenario)
        #expect(buggy.status == .failed)
        #expect(buggy.failures.map(\.label) == ["invariant account-blocked-alert-once-per-blocked-session"])
        #expect(buggy.failures.first?.message.contains("shown 2 time(s)") == true)
        #expect(buggy.failures.first?.location?.file.hasSuffix("invariants.json") == true)
    }

    @Test func quotedValuesAreMaskedLikeEverySecret() async throws {
        var scenario = try load("token-refresh/token-expiry-then-single-shared-refresh")
        // Every access token counts as spent once: the shared one is sent by several requests.
        scenario.invariants = [
            Invariant(
                id: "each-token-once", description: "",
                rule: .neverSentTwice(requests: nil, value: .header("Authorization", scheme: "Bearer")),
                location: scenario.location)
        ]
        let result = await ScenarioRunner(driver: Self.driver).run(scenario)
        let failure = try #require(result.failures.first { $0.label == "invariant each-token-once" })
        #expect(failure.message.contains("‹redacted#"))
        let tokens = scenario.exchanges.compactMap { $0.request.headers["Authorization"] }.map { String($0.dropFirst("Bearer ".count)) }
        #expect(!tokens.isEmpty)
        for token in tokens {
            #expect(!failure.message.contains(token))
            #expect(!(failure.actual ?? "").contains(token))
        }
    }
}
