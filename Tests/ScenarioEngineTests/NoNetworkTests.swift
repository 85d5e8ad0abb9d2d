import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// No request from a session built with the routed configuration opens a socket: not from the
/// runner, not from a thread of the app's own, not after its scenario ended.
@Suite(.serialized) struct NoNetworkTests {
    /// A TCP listener on loopback that counts the connections made to it.
    final class Listener: @unchecked Sendable {
        let socket: Int32
        let port: UInt16

        init() throws {
            #if canImport(Glibc)
                let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
                }
            }
            guard bound, listen(socket, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            self.socket = socket
            port = UInt16(bigEndian: address.sin_port)
        }

        /// Connections waiting to be accepted (each is accepted and closed).
        func connections() -> Int {
            var count = 0
            while case let client = accept(socket, nil, nil), client >= 0 {
                close(client)
                count += 1
            }
            return count
        }

        deinit { close(socket) }
    }

    struct ProbeDriver: ScenarioDriver {
        let url: URL
        /// Whether the stack builds its session from the driver context's configuration.
        var routed = true
        /// A session the app made before the run (a shared one), used instead.
        var madeBefore: URLSession?
        var name: String { "Probe" }
        var actions: [ActionSpec] {
            [ActionSpec("send", "GET the probe URL from a queue or a Thread", arguments: [ArgumentSpec("via", .string, "queue or thread")])]
        }
        var givenKeys: [GivenSpec] { [] }

        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            // The app's own configuration lists URLSession's HTTP loading first.
            let configuration = routed ? context.urlSessionConfiguration() : .ephemeral
            return ProbeSession(session: madeBefore ?? URLSession(configuration: configuration), url: url)
        }
    }

    struct ProbeSession: DriverSession {
        let session: URLSession
        let url: URL

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            let (session, url) = (self.session, self.url)
            let fromThread = arguments["via"]?.stringValue == "thread"
            let status: Int = await withCheckedContinuation { continuation in
                let send: @Sendable () -> Void = {
                    // A held-back transfer ends at its timeout, after the run.
                    session.dataTask(with: URLRequest(url: url, timeoutInterval: 2)) { _, response, _ in
                        continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? -1)
                    }.resume()
                }
                if fromThread { Thread { send() }.start() } else { DispatchQueue(label: "probe.client").async { send() } }
            }
            return .value(["status": .number(Double(status))])
        }

        func snapshot() async -> JSONValue { [:] }
        func alerts() async -> [JSONValue] { [] }
        func timeline() async -> [JSONValue] { [] }
    }

    private func probe(via: String, listener: Listener, routed: Bool = true) async throws -> ScenarioResult {
        try await probe(via: via, url: #require(URL(string: "http://127.0.0.1:\(listener.port)/probe")), routed: routed)
    }

    private func probe(via: String, url: URL, routed: Bool, madeBefore: URLSession? = nil) async throws -> ScenarioResult {
        let scenario = Build.scenario(
            exchanges: [Build.exchange("probe", path: "/probe", status: 204)],
            steps: [Build.step(.perform(Build.call("send", ["via": .string(via)]), parallel: 1, expect: .value(["status": 204])))])
        let driver = ProbeDriver(url: url, routed: routed, madeBefore: madeBefore)
        return await ScenarioRunner(driver: driver, plan: RunPlan(route: .urlSession)).run(scenario)
    }

    @Test func aRoutedSessionsRequestFromAQueueReachesItsRunAndNoSocket() async throws {
        let listener = try Listener()
        let result = try await probe(via: "queue", listener: listener)
        #expect(result.status == .passed, "\(result.explanation)")
        #expect(listener.connections() == 0)
    }

    /// A Thread of the app's own is not the scenario's: the run says so, naming the queue its
    /// request went through, and the request never reaches the network.
    @Test func aRoutedSessionsRequestFromAThreadIsAnEscapeAndNoSocket() async throws {
        let listener = try Listener()
        let result = try await probe(via: "thread", listener: listener)
        #expect(result.status == .error)
        #expect(result.errorMessage?.contains("escaped: a block for queue 'URLSession<") == true, "\(result.explanation)")
        try await Task.sleep(for: .milliseconds(100))
        #expect(listener.connections() == 0)
    }

    /// A session that does not route sends through libcurl: the transfer is held back before
    /// a socket opens, and the run fails naming it.
    @Test func aSessionThatDoesNotRouteIsHeldBackBeforeASocket() async throws {
        let listener = try Listener()
        let result = try await probe(via: "queue", listener: listener, routed: false)
        #expect(result.status == .error)
        let held = "GET http://127.0.0.1:\(listener.port)/probe was held back before it reached the network"
        #expect(result.errorMessage?.contains(held) == true, "\(result.explanation)")
        try await Task.sleep(for: .milliseconds(100))
        #expect(listener.connections() == 0)
    }

    /// Beside other tests, a session made before the run sending from a thread of the app's own
    /// is not the scenario's, yet while a scenario runs its transfer is held back too, and fails
    /// that run. (`.invalid` never resolves: were it not held back, the request would fail with a
    /// lookup error, not this message.)
    @Test func aSessionThatDoesNotRouteIsHeldBackFromAnyThreadWhileAScenarioRuns() async throws {
        let url = try #require(URL(string: "http://probe.invalid/probe?token=s3cret"))
        let shared = URLSession(configuration: .ephemeral)
        defer { shared.invalidateAndCancel() }
        let result = try await probe(via: "thread", url: url, routed: false, madeBefore: shared)
        #expect(result.status == .error)
        let held = "escaped: GET http://probe.invalid/probe was held back before it reached the network"
        #expect(result.errorMessage?.contains(held) == true, "\(result.explanation)")
        #expect(result.errorMessage?.contains("s3cret") == false)
    }

    /// Loopback is where other tests' own servers listen: from a thread of the app's own, a
    /// transfer there goes on (from the runner it is held back, above).
    @Test func aThreadsTransferToLoopbackGoesOn() async throws {
        let listener = try Listener()
        let shared = URLSession(configuration: .ephemeral)
        defer { shared.invalidateAndCancel() }
        let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)/probe"))
        let result = try await probe(via: "thread", url: url, routed: false, madeBefore: shared)
        #expect(result.errorMessage?.contains("held back") != true, "\(result.explanation)")
        var seen = 0
        for _ in 0..<200 where seen == 0 {
            try await Task.sleep(for: .milliseconds(10))
            seen = listener.connections()
        }
        #expect(seen > 0)
    }

    @Test func aRoutedSessionOfAnEndedRunFailsWithoutASocket() async throws {
        let listener = try Listener()
        let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)/probe"))
        let leftover = URLSession(configuration: ScriptedURLProtocol.configuration(run: "run-that-ended"))
        let error: (any Error)? = await withCheckedContinuation { continuation in
            leftover.dataTask(with: url) { _, _, error in continuation.resume(returning: error) }.resume()
        }
        #expect((error as? URLError)?.code == .cannotConnectToHost)
        #expect(listener.connections() == 0)
    }

    @Test func theListenerSeesARealConnection() async throws {
        // The check above can fail: a plain session does reach the listener.
        let listener = try Listener()
        let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)/probe"))
        let request = URLRequest(url: url, timeoutInterval: 1)
        let session = URLSession(configuration: .ephemeral)
        session.dataTask(with: request) { _, _, _ in }.resume()
        var seen = 0
        for _ in 0..<200 where seen == 0 {
            try await Task.sleep(for: .milliseconds(10))
            seen = listener.connections()
        }
        session.invalidateAndCancel()
        #expect(seen > 0)
    }
}
