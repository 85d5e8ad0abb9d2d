import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// The driver kit's completion bridge, with a stack of its own (`ProfileApp`: an `OperationQueue`
/// client, `Result<Profile, ProfileError>` completions, a delegate, a non-`Sendable` model):
/// its scenarios pass on both routes and under explored schedules, and its planted bug is caught.
@Suite struct CompletionBridgeTests {
    static let signInThenLoad = #"""
        {
          "name": "sign in, then load the profile",
          "description": "The token the sign-in answer hands out is sent with the next call; the store is called on the main thread.",
          "exchanges": [
            { "id": "sign-in", "request": { "method": "POST", "path": "/session", "json": { "email": "ana@example.com", "password": "pw-Ana-2207" } },
              "response": { "status": 200, "json": { "data": { "id": "u1", "name": "Ana", "token": "tok-profile-7Qm2x9" } } } },
            { "id": "me", "request": { "method": "GET", "path": "/me", "headers": { "Authorization": "Bearer tok-profile-7Qm2x9" } },
              "response": { "status": 200, "json": { "data": { "id": "u1", "name": "Ana" } } } }
          ],
          "steps": [
            { "do": "signIn", "with": { "email": "ana@example.com", "password": "pw-Ana-2207" }, "expect": { "value": { "id": "u1", "name": "Ana" } } },
            { "do": "loadProfile", "expect": { "value": { "id": "u1", "name": "Ana" } } }
          ],
          "expect": {
            "state": { "signedIn": true, "tokens": { "access": "present" }, "profile": { "id": "u1", "name": "Ana" }, "offMainCalls": 0 },
            "timeline": ["signedIn"], "requests": { "total": 2 }
          }
        }
        """#

    static let rename = #"""
        {
          "name": "rename with a stored token",
          "description": "A stored token is sent from the start; the renamed profile is on screen.",
          "given": { "token": "tok-stored-4Fh8k2" },
          "exchanges": [
            { "id": "rename", "request": { "method": "PATCH", "path": "/me", "json": { "name": "Bo" }, "headers": { "Authorization": "Bearer tok-stored-4Fh8k2" } },
              "response": { "status": 200, "json": { "data": { "id": "u1", "name": "Bo" } } } }
          ],
          "steps": [{ "do": "rename", "with": { "name": "Bo" }, "expect": { "value": { "id": "u1", "name": "Bo" } } }],
          "expect": { "state": { "signedIn": true, "profile": { "id": "u1", "name": "Bo" }, "offMainCalls": 0 }, "requests": { "total": 1 } }
        }
        """#

    static let sessionLost = #"""
        {
          "name": "a 401 ends the session and takes the profile off the screen",
          "description": "The delegate hears of the lost session on the main queue; nothing of the old profile stays on show.",
          "given": { "token": "tok-stored-4Fh8k2" },
          "exchanges": [
            { "id": "me", "request": { "method": "GET", "path": "/me" }, "response": { "status": 200, "json": { "data": { "id": "u1", "name": "Ana" } } } },
            { "id": "me-401", "after": "me", "request": { "method": "GET", "path": "/me" }, "response": { "status": 401 } }
          ],
          "steps": [
            { "do": "loadProfile", "expect": { "value": { "id": "u1", "name": "Ana" } } },
            { "do": "loadProfile", "expect": { "error": "unauthorized" } }
          ],
          "expect": {
            "state": { "signedIn": false, "tokens": { "access": "absent" }, "profile": null, "offMainCalls": 0 },
            "alerts": [{ "title": "Your session has ended" }], "timeline": ["sessionLost"], "requests": { "total": 2 }
          }
        }
        """#

    static let scenarios = [signInThenLoad, rename, sessionLost]

    static func load(_ text: String, for driver: some ScenarioDriver) throws -> Scenario {
        try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(
            data: Data(text.utf8), file: "profile.json", id: "profile"
        )
        .get()
    }

    @Test(arguments: scenarios, RunPlan.Route.allCases)
    func theStackPassesItsScenarios(_ text: String, route: RunPlan.Route) async throws {
        let result = await ScenarioRunner(driver: ProfileAppDriver(), plan: RunPlan(route: route)).run(
            try Self.load(text, for: ProfileAppDriver()))
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test(arguments: scenarios)
    func explorationFindsNoOtherOutcome(_ text: String) async throws {
        let result = await ScenarioRunner(driver: ProfileAppDriver(), plan: RunPlan(mode: .explored(schedules: 20, seed: 3))).run(
            try Self.load(text, for: ProfileAppDriver()))
        #expect(result.status == .passed, "\(result.explanation)")
    }

    @Test(arguments: RunPlan.Route.allCases)
    func thePlantedBugIsCaught(route: RunPlan.Route) async throws {
        let driver = ProfileAppDriver(keepsProfileAfter401: true)
        let result = await ScenarioRunner(driver: driver, plan: RunPlan(route: route)).run(
            try Self.load(Self.sessionLost, for: driver))
        #expect(result.status == .failed)
        #expect(result.failures.map(\.summary).contains { $0.contains("state.profile") }, "\(result.failures.map(\.summary))")
    }

    /// A completion called from another thread, twice: converted on the main queue, answered once.
    @Test func aCompletionOffTheMainQueueIsConvertedOnItAndAnsweredOnce() async throws {
        let driver = ProbeDriver()
        let text =
            #"{ "name": "probe", "description": "completion twice, off the main queue", "steps": [{ "do": "twice", "expect": { "value": { "value": 1, "convertedOnMain": true } } }] }"#
        let result = await ScenarioRunner(driver: driver).run(try Self.load(text, for: driver))
        #expect(result.status == .passed, "\(result.explanation)")
    }
}

/// A session whose only action calls its completion on a global queue, twice.
private struct ProbeDriver: ScenarioDriver, DriverSession {
    var name: String { "Probe" }
    var actions: [ActionSpec] { [ActionSpec("twice", "a completion called twice off the main queue")] }
    var givenKeys: [GivenSpec] { [] }
    func makeSession(_ context: DriverContext) async throws -> any DriverSession { self }

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        await withCompletion { done in
            DispatchQueue.global().async {
                done(1)
                done(2)
            }
        } onMainQueue: { (value: Int) in
            .value(["value": .number(Double(value)), "convertedOnMain": .bool(Thread.isMainThread)])
        }
    }
    func snapshot() async -> JSONValue { [:] }
    func alerts() async -> [JSONValue] { [] }
    func timeline() async -> [JSONValue] { [] }
}
