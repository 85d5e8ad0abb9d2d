import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A run's routed configuration (``DriverContext/urlSessionConfiguration()``) names its run with a
/// protocol class. A class, once made, stays for the life of the process, so runs one after
/// another share one instead of making one each; and a session kept from a run that has ended
/// still reaches no later run, though that run's class is the one it was made with.
@Suite(.serialized) struct RouteReuseTests {
    /// What the driver saw: the protocol class of each run's configuration, and a session made
    /// in the first run, kept as a stack prepared once per process would keep it.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var classes: [ObjectIdentifier] = []
        private var first: URLSession?

        func note(_ configuration: URLSessionConfiguration) -> URLSession? {
            lock.withLock {
                if let made = configuration.protocolClasses?.first { classes.append(ObjectIdentifier(made)) }
                if first == nil { first = URLSession(configuration: configuration) }
                return first
            }
        }

        var distinctClasses: Int { lock.withLock { Set(classes).count } }
        var runs: Int { lock.withLock { classes.count } }
    }

    struct Driver: ScenarioDriver {
        let seen: Seen
        var name: String { "RouteReuse" }
        var actions: [ActionSpec] {
            [ActionSpec("fresh", "GET /feed through this run's session"), ActionSpec("kept", "GET /feed through the first run's session")]
        }
        var givenKeys: [GivenSpec] { [] }

        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            let fresh = URLSession(configuration: context.urlSessionConfiguration())
            return Session(fresh: fresh, kept: seen.note(context.urlSessionConfiguration()) ?? fresh, base: context.baseURL)
        }
    }

    struct Session: ActionOnlySession {
        let fresh: URLSession
        let kept: URLSession
        let base: URL

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            do {
                let (_, response) = try await (action == "kept" ? kept : fresh).data(from: base.appendingPathComponent("feed"))
                return .value(["status": .number(Double((response as? HTTPURLResponse)?.statusCode ?? 0))])
            } catch {
                return .error(["urlError": .number(Double((error as? URLError)?.code.rawValue ?? 0))])
            }
        }
    }

    static func scenario(_ action: String, expect: Outcome, optionalFeed: Bool = false) -> Scenario {
        Build.scenario(
            exchanges: [Build.exchange("feed", path: "/feed", optional: optionalFeed)],
            steps: [Build.step(.perform(Build.call(action), parallel: 1, expect: expect))])
    }

    @Test func runsOneAfterAnotherShareOneProtocolClass() async {
        let seen = Seen()
        let runner = ScenarioRunner(driver: Driver(seen: seen))
        for _ in 0..<5 {
            let result = await runner.run(Self.scenario("fresh", expect: .value(["status": 200])))
            #expect(result.status == .passed, "\(result.explanation)")
        }
        #expect(seen.runs == 5)
        #expect(seen.distinctClasses == 1, "a protocol class per run: \(seen.distinctClasses) for \(seen.runs) runs")
    }

    /// The kept session's class names the second run by then: the session's own route says it
    /// belongs to the first, so its request fails as one of an ended run, unseen by the backend.
    @Test func aSessionKeptFromAnEndedRunReachesNoLaterRun() async {
        let seen = Seen()
        let runner = ScenarioRunner(driver: Driver(seen: seen))
        let first = await runner.run(Self.scenario("fresh", expect: .value(["status": 200])))
        #expect(first.status == .passed, "\(first.explanation)")
        let cannotConnect = JSONValue.number(Double(URLError.Code.cannotConnectToHost.rawValue))
        let second = await runner.run(Self.scenario("kept", expect: .error(["urlError": cannotConnect]), optionalFeed: true))
        #expect(second.status == .passed, "\(second.explanation)")
        #expect(!second.transcript.contains { $0.contains("/feed") }, "\(second.transcript)")
        #expect(seen.distinctClasses == 1)
    }
}

/// Beside other tests, a request a task resumes off any runner thread (a session kept from an
/// ended run, resumed late) is not announced to the run that holds its class's slot now: the
/// announcement would make that run take work from other threads as expected, hiding an escape.
@Suite struct LeftoverRequestTests {
    @Test func aRequestResumedOffTheRunnerIsNotAnnouncedToTheSlotsRun() throws {
        try #require(ScenarioHost.shared.mode == .besideOtherTests)
        let outside = OutsideWork(changed: {})
        let backend = ScriptedBackend(exchanges: [], clock: VirtualClock(start: Date()), outsideWork: outside)
        let run = ScenarioHost.shared.runs.add(backend)
        defer { ScenarioHost.shared.runs.remove(run) }
        let slot = try #require(ScenarioHost.shared.runs.slot(of: run))
        let routed = try #require(SlotClass.protocolClass(forSlot: slot) as? URLProtocol.Type)
        let url = try #require(URL(string: "https://api.example.com/feed"))
        #expect(routed.canInit(with: URLRequest(url: url)))
        #expect(outside.isAway == false, "announced to the run that holds the slot: \(outside.summary)")
    }
}
