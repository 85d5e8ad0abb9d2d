import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// A stack's own URLSession gives up on an answer that comes later than its request timeout, as
    /// on a device: the task fails with `URLError(.timedOut)` at that virtual instant, the exchange
    /// still served the request, and its answer never reaches the app.
    @Suite struct RequestTimeoutTests {
        struct Driver: ScenarioDriver {
            var name: String { "Timeouts" }
            var actions: [ActionSpec] {
                ["feed", "feedWithin3s", "feedOnDefaultSession", "feedThroughTransport"].map { ActionSpec($0, $0) }
            }
            var givenKeys: [GivenSpec] { [] }

            func makeSession(_ context: DriverContext) async throws -> any DriverSession {
                let tenSeconds = context.urlSessionConfiguration()
                tenSeconds.timeoutIntervalForRequest = 10
                return Session(
                    session: URLSession(configuration: tenSeconds),
                    defaultSession: URLSession(configuration: context.urlSessionConfiguration()),
                    transport: context.transport, base: context.baseURL)
            }
        }

        struct Session: ActionOnlySession {
            let session: URLSession
            let defaultSession: URLSession
            let transport: any HTTPTransport
            let base: URL

            func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
                var request = URLRequest(url: base.appendingPathComponent("feed"))
                do {
                    let response: URLResponse
                    switch action {
                    case "feedThroughTransport":
                        let answer = try await transport.send(HTTPRequest(method: .get, path: "/feed"))
                        return .value(["status": .number(Double(answer.status.code))])
                    case "feedWithin3s":
                        request.timeoutInterval = 3
                        response = try await session.data(for: request).1
                    case "feedOnDefaultSession":
                        response = try await defaultSession.data(for: request).1
                    default:
                        response = try await session.data(for: request).1
                    }
                    return .value(["status": .number(Double((response as? HTTPURLResponse)?.statusCode ?? 0))])
                } catch let error as URLError where error.code == .timedOut {
                    return .error(["code": "timedOut"])
                } catch {
                    return .error(["code": .string("\(error)")])
                }
            }
        }

        private static let timedOut = Outcome.error(["code": "timedOut"])
        private static let ok = Outcome.value(["status": 200])

        private func run(_ exchange: Exchange, _ steps: [Step], route: RunPlan.Route = .direct) async -> ScenarioResult {
            await ScenarioRunner(driver: Driver(), plan: RunPlan(route: route)).run(
                Build.scenario(exchanges: [exchange], steps: steps))
        }

        @Test(arguments: RunPlan.Route.allCases)
        func anAnswerLaterThanTheSessionsTimeoutFailsTheTaskAtTheTimeout(route: RunPlan.Route) async {
            let late = await run(
                Build.exchange("feed", path: "/feed", latency: .seconds(45)),
                [Build.step(.perform(Build.call("feed"), parallel: 1, expect: Self.timedOut))], route: route)
            #expect(late.status == .passed, "\(late.explanation)")
            #expect(
                late.transcript.last == "[10.000s] #1 ✗ timed out by the client after 10.000s (its request timeout) ('feed' answers later)",
                "\(late.transcript)")
            #expect(late.virtualTime == .seconds(10))

            let inTime = await run(
                Build.exchange("feed", path: "/feed", latency: .seconds(9)),
                [Build.step(.perform(Build.call("feed"), parallel: 1, expect: Self.ok))], route: route)
            #expect(inTime.status == .passed, "\(inTime.explanation)")
            #expect(inTime.transcript.last?.hasPrefix("[9.000s] #1 ← 200 OK via feed") == true, "\(inTime.transcript)")
        }

        @Test func aRequestsOwnTimeoutAndTheDefaultSixtySecondsCountToo() async {
            let ownTimeout = await run(
                Build.exchange("feed", path: "/feed", latency: .seconds(5)),
                [Build.step(.perform(Build.call("feedWithin3s"), parallel: 1, expect: Self.timedOut))])
            #expect(ownTimeout.status == .passed, "\(ownTimeout.explanation)")
            #expect(ownTimeout.virtualTime == .seconds(3))

            let defaultTimeout = await run(
                Build.exchange("feed", path: "/feed", latency: .seconds(90)),
                [Build.step(.perform(Build.call("feedOnDefaultSession"), parallel: 1, expect: Self.timedOut))])
            #expect(defaultTimeout.status == .passed, "\(defaultTimeout.explanation)")
            #expect(defaultTimeout.virtualTime == .seconds(60))
        }

        /// A held answer times out too; one released before the timeout arrives, and its timer goes.
        @Test func aHeldAnswerTimesOutUnlessReleasedInTime() async {
            let heldTooLong = await run(
                Build.exchange("feed", path: "/feed", release: .atStep("release")),
                [
                    Build.step(.start(Build.call("feed"), handle: "feed")), Build.step(.advance(.seconds(30))),
                    Build.step(.runUntilIdle, name: "release"), Build.step(.await(handle: "feed", expect: Self.timedOut)),
                ])
            #expect(heldTooLong.status == .passed, "\(heldTooLong.explanation)")
            #expect(heldTooLong.transcript.contains { $0.hasPrefix("[10.000s] #1 ✗ timed out by the client after 10.000s") })
            #expect(!heldTooLong.transcript.contains { $0.hasSuffix("▶ released") }, "\(heldTooLong.transcript)")

            let releasedInTime = await run(
                Build.exchange("feed", path: "/feed", release: .atStep("release")),
                [
                    Build.step(.start(Build.call("feed"), handle: "feed")), Build.step(.advance(.seconds(5))),
                    Build.step(.runUntilIdle, name: "release"), Build.step(.await(handle: "feed", expect: Self.ok)),
                    Build.step(.advance(.seconds(30))),
                ])
            #expect(releasedInTime.status == .passed, "\(releasedInTime.explanation)")
            #expect(!releasedInTime.transcript.contains { $0.contains("timed out") }, "\(releasedInTime.transcript)")
        }

        /// `context.transport` waits as long as the answer takes on both routes, so they agree.
        @Test(arguments: RunPlan.Route.allCases)
        func theDriverContextsTransportWaitsOnEitherRoute(route: RunPlan.Route) async {
            let result = await run(
                Build.exchange("feed", path: "/feed", latency: .seconds(90)),
                [Build.step(.perform(Build.call("feedThroughTransport"), parallel: 1, expect: Self.ok))], route: route)
            #expect(result.status == .passed, "\(result.explanation)")
            #expect(result.virtualTime == .seconds(90))
        }
    }
#endif
