import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(Linux)
    /// A stack whose client is not URLSession (SwiftNIO, AsyncHTTPClient, a socket) cannot be
    /// scripted, and its connections must not reach the network either: while a scenario runs, the
    /// program's own `connect` away from this machine and `getaddrinfo` of a remote name are refused
    /// before anything leaves, and the run says so; loopback, where other tests listen, goes on.
    @Suite(.serialized) struct ConnectionGuardTests {
        /// What the stack's calls gave back, read after the run.
        static let answers = ResultBox<[String]>()

        struct SocketDriver: ScenarioDriver {
            var name: String { "Sockets" }
            var actions: [ActionSpec] {
                [
                    ActionSpec(
                        "open", "connect or look up",
                        arguments: [
                            ArgumentSpec("to", .string, "remote, lookup or a loopback port"),
                            ArgumentSpec("via", .string, "runner or thread"),
                        ])
                ]
            }
            var givenKeys: [GivenSpec] { [] }
            func makeSession(_ context: DriverContext) async throws -> any DriverSession { SocketSession() }
        }

        struct SocketSession: ActionOnlySession {
            func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
                let target = arguments["to"]?.stringValue ?? "remote"
                let answer: String
                if arguments["via"]?.stringValue == "thread" {
                    // As an event loop of the stack's own would (SwiftNIO's).
                    let box = ResultBox<String>()
                    let thread = Thread { box.set(ConnectionGuardTests.open(target)) }
                    thread.start()
                    while box.value == nil { usleep(1000) }
                    answer = box.value ?? ""
                } else {
                    answer = ConnectionGuardTests.open(target)
                }
                ConnectionGuardTests.answers.set((ConnectionGuardTests.answers.value ?? []) + [answer])
                return .value(.string(answer))
            }
        }

        /// Connects (a non-blocking socket, so nothing waits for an answer) or looks a name up, and
        /// says what the C library answered.
        static func open(_ target: String) -> String {
            if target == "lookup" {
                var result: UnsafeMutablePointer<addrinfo>?
                let status = getaddrinfo("api.example.com", "443", nil, &result)
                if let result { freeaddrinfo(result) }
                return status == EAI_FAIL ? "lookup refused" : "lookup \(status)"
            }
            let port = UInt16(target) ?? 443
            #if canImport(Glibc)
                let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
            #endif
            defer { close(socket) }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            // 192.0.2.1 (TEST-NET-1) is never routed: a refusal there can only be the guard's.
            address.sin_addr.s_addr = inet_addr(target == "remote" ? "192.0.2.1" : "127.0.0.1")
            address.sin_port = port.bigEndian
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return status == 0 || errno == EINPROGRESS ? "connecting" : errno == ECONNREFUSED ? "refused" : "errno \(errno)"
        }

        private func run(_ target: String, via: String) async -> ScenarioResult {
            Self.answers.set([])
            let scenario = Build.scenario(
                steps: [Build.step(.perform(Build.call("open", ["to": .string(target), "via": .string(via)]), parallel: 1, expect: .ok))])
            return await ScenarioRunner(driver: SocketDriver()).run(scenario)
        }

        /// Under a sanitizer the program defines `connect` itself, so there is no slot to guard.
        private var guards: Bool {
            #expect(DispatchCapture.guardsConnections || DispatchCapture.programDefinesSleeps)
            return DispatchCapture.guardsConnections
        }

        @Test(arguments: ["runner", "thread"])
        func aConnectionAwayFromThisMachineIsRefusedAndFailsTheRun(via: String) async {
            guard guards else { return }
            let result = await run("remote", via: via)
            #expect(Self.answers.value == ["refused"])
            #expect(result.status == .error)
            let refused = "escaped: a connection to 192.0.2.1:443 was refused before it reached the network"
            #expect(result.errorMessage?.contains(refused) == true, "\(result.explanation)")
        }

        @Test func aLookupOfARemoteNameIsRefused() async {
            guard guards else { return }
            let result = await run("lookup", via: "runner")
            #expect(Self.answers.value == ["lookup refused"])
            #expect(result.errorMessage?.contains("a connection to api.example.com was refused") == true, "\(result.explanation)")
        }

        @Test func aConnectionToLoopbackGoesOn() async throws {
            guard guards else { return }
            let listener = try NoNetworkTests.Listener()
            let result = await run("\(listener.port)", via: "thread")
            #expect(result.status == .passed, "\(result.explanation)")
            #expect(Self.answers.value == ["connecting"])
            var seen = 0
            for _ in 0..<200 where seen == 0 {
                try await Task.sleep(for: .milliseconds(10))
                seen = listener.connections()
            }
            #expect(seen > 0)
        }
    }
#endif
