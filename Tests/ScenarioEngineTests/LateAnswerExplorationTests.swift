import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Exploration reorders answers in flight together: a refresh coalescer that does not check
/// whether the token a 401 was sent with was already replaced (a late 401 spends the rotated
/// refresh token again) passes first in, first out and is caught under schedules, and the
/// printed schedule replays the failure every time.
@Suite struct LateAnswerExplorationTests {
    /// An actor client with one shared refresh; `checksReplacedToken` is the line the bug drops.
    actor Client {
        let transport: any HTTPTransport
        let checksReplacedToken: Bool
        var access = "acc-old"
        var refresh = "ref-old"
        var refreshing: Task<Bool, Never>?

        init(transport: any HTTPTransport, checksReplacedToken: Bool) {
            self.transport = transport
            self.checksReplacedToken = checksReplacedToken
        }

        func feed() async -> Int {
            let sent = access
            guard let first = try? await send("/feed", token: sent) else { return 0 }
            guard first == 401 else { return first }
            if checksReplacedToken, access != sent { return (try? await send("/feed", token: access)) ?? 0 }
            let task = refreshing ?? Task { await self.performRefresh() }
            refreshing = task
            guard await task.value else { return 401 }
            return (try? await send("/feed", token: access)) ?? 0
        }

        private func performRefresh() async -> Bool {
            defer { refreshing = nil }
            var request = HTTPRequest(method: .post, path: "/auth/refresh")
            request.body = Data(#"{"refresh_token":"\#(refresh)"}"#.utf8)
            guard let response = try? await transport.send(request), response.status.code == 200,
                let json = JSONValue.parse(response.body), let next = json["access_token"]?.stringValue,
                let rotated = json["refresh_token"]?.stringValue
            else { return false }
            access = next
            refresh = rotated
            return true
        }

        private func send(_ path: String, token: String) async throws -> Int {
            var request = HTTPRequest(method: .get, path: path)
            request.headers["Authorization"] = "Bearer \(token)"
            return try await transport.send(request).status.code
        }
    }

    struct Driver: ScenarioDriver {
        let checksReplacedToken: Bool
        var name: String { "Coalescer" }
        var actions: [ActionSpec] { [ActionSpec("feed", "GET /feed, refreshing on 401")] }
        var givenKeys: [GivenSpec] { [] }

        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            Session(client: Client(transport: context.transport, checksReplacedToken: checksReplacedToken))
        }
    }

    struct Session: DriverSession {
        let client: Client
        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            .value(["status": .number(Double(await client.feed()))])
        }
        func snapshot() async -> JSONValue { [:] }
        func alerts() async -> [JSONValue] { [] }
        func timeline() async -> [JSONValue] { [] }
    }

    /// The brief's shape: concurrent 401s released at one instant, one refresh answering 150 ms later.
    static let scenario: Scenario = {
        var expired = Build.exchange("expired", path: "/feed", status: 401, times: 5, release: .whenPending(5))
        expired.request.headers = ["Authorization": "Bearer acc-old"]
        var refresh = Build.exchange(
            "refresh", path: "/auth/refresh", json: ["access_token": "acc-new", "refresh_token": "ref-new"], latency: .milliseconds(150))
        refresh.request = RequestMatcher(method: .post, path: .exact("/auth/refresh"))
        var fresh = Build.exchange("fresh", path: "/feed", times: 5)
        fresh.request.headers = ["Authorization": "Bearer acc-new"]
        return Build.scenario(
            exchanges: [expired, refresh, fresh],
            steps: [Build.step(.perform(Build.call("feed"), parallel: 5, expect: .value(["status": 200])))])
    }()

    private func run(checksReplacedToken: Bool, _ mode: RunPlan.Mode) async -> ScenarioResult {
        await ScenarioRunner(driver: Driver(checksReplacedToken: checksReplacedToken), plan: RunPlan(mode: mode)).run(Self.scenario)
    }

    @Test(arguments: [1, 2, 20261123] as [UInt64])
    func theLate401BugIsFoundWithin100SchedulesAndItsReplayFailsEveryTime(seed: UInt64) async {
        let first = await run(checksReplacedToken: false, .explored(schedules: 1, seed: seed))
        #expect(first.status == .passed, "first in, first out hides the bug: \(first.explanation)")
        let explored = await run(checksReplacedToken: false, .explored(schedules: 100, seed: seed))
        #expect(explored.status == .failed, "\(explored.explanation)")
        let index = explored.schedules - 1
        let schedule = JobSchedule(seed: seed, index: index)
        for _ in 0..<20 {
            let replay = await run(checksReplacedToken: false, .replay(schedule))
            #expect(replay.status == .failed)
            #expect(replay.transcript == explored.transcript)
        }
    }

    @Test func theCorrectCoalescerPasses100Schedules() async {
        let result = await run(checksReplacedToken: true, .explored(schedules: 100, seed: 1))
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(result.schedules == 100)
    }

    @Test func pinnedAnswersKeepTheScriptedOrder() async {
        var pinned = Self.scenario
        pinned.lateAnswers = .zero
        let result = await ScenarioRunner(
            driver: Driver(checksReplacedToken: false), plan: RunPlan(mode: .explored(schedules: 100, seed: 1))
        ).run(pinned)
        #expect(result.status == .passed, "\(result.explanation)")
    }
}
