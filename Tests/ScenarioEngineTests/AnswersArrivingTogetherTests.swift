import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Under an explored schedule, answers that arrive together may reach the stack while it still
/// handles the previous one, as on the real network: a blocked-user guard that checks, hops to
/// an actor, then sets shows two alerts for three 403s answered at one instant. An answer that
/// comes due while the app is still sending its other requests still waits for them.
@Suite struct AnswersArrivingTogetherTests {
    actor Storage {
        func wipe() {}
    }

    /// Checks, hops to wipe the storage, then sets: the bug when two 403s are handled interleaved.
    @MainActor final class Guard {
        let checksAfterTheHop: Bool
        var handled = false
        var alerts: [String] = []

        init(checksAfterTheHop: Bool) { self.checksAfterTheHop = checksAfterTheHop }

        func blocked(_ storage: Storage) async {
            guard !handled else { return }
            await storage.wipe()
            if checksAfterTheHop, handled { return }
            handled = true
            alerts.append("Account Blocked")
        }
    }

    /// What the app did, in order: "sent /a", "answered /a", ...
    @MainActor final class Events {
        var list: [String] = []
    }

    struct Driver: ScenarioDriver {
        let checksAfterTheHop: Bool
        var name: String { "Dashboards" }
        var actions: [ActionSpec] {
            [
                ActionSpec("dashboards", "three GET /feed at once"), ActionSpec("fanOut", "GET /a, /b and /c at once"),
                ActionSpec("cancelOnFirst403", "three GET /feed at once; the first 403 cancels the others"),
            ]
        }
        var givenKeys: [GivenSpec] { [] }

        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            // The stack's own URLSession, built from the routed configuration, as an app builds it.
            let ownSession = URLSessionHTTPTransport(
                baseURL: context.baseURL, session: URLSession(configuration: context.urlSessionConfiguration()))
            return await Session(
                transport: context.transport, ownSession: ownSession, guardian: Guard(checksAfterTheHop: checksAfterTheHop),
                events: Events())
        }
    }

    struct Session: DriverSession {
        let transport: any HTTPTransport
        let ownSession: any HTTPTransport
        let guardian: Guard
        let events: Events
        let storage = Storage()

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            let (transport, guardian, events, storage) = (transport, guardian, events, storage)
            if action == "cancelOnFirst403" {
                await withTaskGroup(of: Int?.self) { group in
                    for _ in 0..<3 {
                        group.addTask { [ownSession] in (try? await ownSession.send(HTTPRequest(method: .get, path: "/feed")))?.status.code
                        }
                    }
                    for await status in group where status == 403 { group.cancelAll() }
                }
                return .value(.null)
            }
            let paths = action == "dashboards" ? ["/feed", "/feed", "/feed"] : ["/a", "/b", "/c"]
            await withTaskGroup(of: Void.self) { group in
                for path in paths {
                    group.addTask {
                        await MainActor.run { events.list.append("sent \(path)") }
                        let status = (try? await transport.send(HTTPRequest(method: .get, path: path)))?.status.code
                        await MainActor.run { events.list.append("answered \(path)") }
                        if status == 403 { await guardian.blocked(storage) }
                    }
                }
            }
            return .value(.null)
        }

        func snapshot() async -> JSONValue {
            let list = await MainActor.run { events.list }
            let firstAnswer = list.firstIndex { $0.hasPrefix("answered") } ?? list.count
            return ["sentBeforeAnyAnswer": .number(Double(list[..<firstAnswer].count))]
        }

        func alerts() async -> [JSONValue] { await MainActor.run { guardian.alerts.map { .string($0) } } }
        func timeline() async -> [JSONValue] { [] }
    }

    static let blocked = Build.scenario(
        exchanges: [Build.exchange("blocked", path: "/feed", status: 403, times: 3)],
        steps: [Build.step(.perform(Build.call("dashboards"), parallel: 1, expect: .ok))],
        expect: Expectations(alerts: ["Account Blocked"]))

    private func explore(_ scenario: Scenario, checksAfterTheHop: Bool, route: RunPlan.Route, _ mode: RunPlan.Mode) async
        -> ScenarioResult
    {
        await ScenarioRunner(driver: Driver(checksAfterTheHop: checksAfterTheHop), plan: RunPlan(route: route, mode: mode)).run(scenario)
    }

    @Test(arguments: [RunPlan.Route.direct, .urlSession], [1, 2, 3] as [UInt64])
    func theCheckHopSetGuardIsFoundAndItsReplayFailsEveryTime(route: RunPlan.Route, seed: UInt64) async {
        let first = await explore(Self.blocked, checksAfterTheHop: false, route: route, .explored(schedules: 1, seed: seed))
        #expect(first.status == .passed, "first in, first out hides the bug: \(first.explanation)")
        let explored = await explore(Self.blocked, checksAfterTheHop: false, route: route, .explored(schedules: 100, seed: seed))
        #expect(explored.status == .failed, "\(explored.explanation)")
        #expect(explored.failures.contains { $0.message.contains("alerts") }, "\(explored.explanation)")
        let schedule = JobSchedule(seed: seed, index: explored.schedules - 1)
        for _ in 0..<20 {
            let replay = await explore(Self.blocked, checksAfterTheHop: false, route: route, .replay(schedule))
            #expect(replay.status == .failed)
            #expect(replay.transcript == explored.transcript)
        }
    }

    @Test(arguments: [RunPlan.Route.direct, .urlSession])
    func theGuardThatLooksAgainAfterTheHopPasses(route: RunPlan.Route) async {
        let result = await explore(Self.blocked, checksAfterTheHop: true, route: route, .explored(schedules: 100, seed: 1))
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(result.schedules == 100)
    }

    /// `/a`'s answer comes due at once, while `/b` and `/c` are still to be sent: it waits for
    /// them, under every schedule, so a request the app had in hand never looks sent after it.
    @Test(arguments: [RunPlan.Route.direct, .urlSession])
    func anAnswerDueWhileTheAppStillSendsWaitsForIt(route: RunPlan.Route) async {
        let fanOut = Build.scenario(
            exchanges: ["/a", "/b", "/c"].map { Build.exchange(String($0.dropFirst()), path: $0) },
            steps: [Build.step(.perform(Build.call("fanOut"), parallel: 1, expect: .ok))],
            expect: Expectations(state: ["sentBeforeAnyAnswer": 3]))
        let result = await explore(fanOut, checksAfterTheHop: true, route: route, .explored(schedules: 100, seed: 1))
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(result.schedules == 100)
    }

    /// Three dashboards through the stack's own URLSession, each cancelling its other requests on
    /// its first 403 while their answers arrive together: every schedule ends clean, each answer
    /// handed over or logged as cancelled (see `CancelledRequestTests` for the answer of a task
    /// whose cancel is under way).
    @Test(arguments: [1, 2, 3] as [UInt64])
    func cancellingWhileAnswersArriveTogetherEndsClean(seed: UInt64) async {
        let cancelling = Build.scenario(
            exchanges: [Build.exchange("blocked", path: "/feed", status: 403, times: 9, release: .whenPending(9), optional: true)],
            steps: [Build.step(.perform(Build.call("cancelOnFirst403"), parallel: 3, expect: .ok))])
        let result = await explore(cancelling, checksAfterTheHop: true, route: .urlSession, .explored(schedules: 100, seed: seed))
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(result.schedules == 100)
    }
}
