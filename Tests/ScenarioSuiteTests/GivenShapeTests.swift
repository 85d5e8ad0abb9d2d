import Foundation
import ScenarioKit
import SessionKitDriver
import Testing

/// `lint` checks `given` as deeply as the driver reads it: every problem, in one pass, at its place.
@Suite struct GivenShapeTests {
    @Test func everyProblemInGivenIsFoundBeforeRunning() throws {
        let text = #"""
            { "name": "g", "description": "x",
              "given": { "session": { "acessToken": "t", "user": { "name": "n" } },
                         "config": { "healthPollInterval": "-1s", "verificationCountdown": 0 },
                         "preferences": { "theme": 3 } },
              "steps": [{ "do": "bootstrap" }], "relax": { "unmatchedRequests": true } }
            """#
        let driver = SessionKitDriver()
        let loaded = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(
            data: Data(text.utf8), file: "g.json", id: "g")
        guard case .failure(let failure) = loaded else {
            Issue.record("a given with six mistakes loaded")
            return
        }
        let paths = Set(failure.issues.map(\.location.path))
        #expect(
            paths == [
                "$.given.session", "$.given.session.acessToken", "$.given.session.user", "$.given.config.healthPollInterval",
                "$.given.config.verificationCountdown", "$.given.preferences.theme",
            ], "\(failure.description)")
        #expect(failure.issues.contains { $0.hint?.contains("did you mean 'accessToken'") == true })
    }
}
