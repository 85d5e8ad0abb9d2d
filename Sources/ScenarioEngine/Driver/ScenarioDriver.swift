import Foundation
import HTTPCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Binds the scenario engine to one client stack. Write one to drive your own stack;
/// everything else (loading, the scripted backend, time, running, reports) is reused.
public protocol ScenarioDriver: Sendable {
    /// A short name for reports, such as `SessionKit`.
    var name: String { get }
    /// Every action steps may name, with its arguments.
    var actions: [ActionSpec] { get }
    /// The keys `given` may hold besides `clock`.
    var givenKeys: [GivenSpec] { get }
    /// Member, query and form names whose values are secrets in this stack's traffic, beyond the
    /// built-in ones (`token`, `password`, `secret`, `api_key`, `otp_code`, ...). Default: none.
    var secretKeys: [String] { get }
    /// Builds a fresh stack for one scenario run.
    /// - Throws: when `given` describes something the stack cannot start from.
    func makeSession(_ context: DriverContext) async throws -> any DriverSession
    /// What the trace importer needs to know about the stack (default: traces are not supported).
    var traceImport: TraceImportSpec { get }
}

extension ScenarioDriver {
    /// No names beyond the built-in ones.
    public var secretKeys: [String] { [] }
}

/// A stack under test, for the length of one scenario run.
public protocol DriverSession: Sendable {
    /// Performs a named action with its (already validated) arguments.
    func perform(_ action: String, arguments: JSONValue) async -> ActionResult
    /// The state as JSON, for `expect.state`. Never put secret values in it.
    func snapshot() async -> JSONValue
    /// Every alert shown so far, in order.
    func alerts() async -> [JSONValue]
    /// Every state transition so far, in order.
    func timeline() async -> [JSONValue]
}

/// What an action gave back.
public enum ActionResult: Sendable, Hashable {
    /// Success, with a value (`null` when there is nothing to say).
    case value(JSONValue)
    /// Failure, as an object with at least a string `code`.
    case error(JSONValue)
}

/// What a driver gets to build its stack with.
///
/// The stack runs as it is written: `Task {}`, `Task.detached`, actors, `@MainActor` code,
/// task groups and `Task.sleep` are captured by the scenario and run one job at a time on
/// virtual time, with no executor to pass anywhere. Requests must reach the scripted backend:
/// through ``transport``, or through a URLSession built from ``urlSessionConfiguration()``, or
/// through `URLSession.shared`, which the scenario serves while it runs.
public struct DriverContext: Sendable {
    /// `given` without `clock`.
    public let given: JSONValue
    /// The backend: the scripted transport directly, or URLSession through the URLProtocol adapter.
    public let transport: any HTTPTransport
    /// The virtual clock.
    public let clock: VirtualClock
    /// The base URL requests are addressed to (hosts are never significant).
    public let baseURL: URL
    /// How the run hands requests to the backend (`--route`).
    public let route: RunPlan.Route
    /// The run's key on the URLSession route.
    let run: String
    let outside: OutsideWork?

    /// Creates a context.
    public init(given: JSONValue, transport: any HTTPTransport, clock: VirtualClock, baseURL: URL, route: RunPlan.Route = .direct) {
        self.init(given: given, transport: transport, clock: clock, baseURL: baseURL, route: route, run: "", outside: nil)
    }

    init(
        given: JSONValue, transport: any HTTPTransport, clock: VirtualClock, baseURL: URL, route: RunPlan.Route, run: String,
        outside: OutsideWork?
    ) {
        self.given = given
        self.transport = transport
        self.clock = clock
        self.baseURL = baseURL
        self.route = route
        self.run = run
        self.outside = outside
    }

    /// The same context with another transport in front (a recorder, a wrapper of the driver's).
    public func replacingTransport(with transport: any HTTPTransport) -> DriverContext {
        DriverContext(
            given: given, transport: transport, clock: clock, baseURL: baseURL, route: route, run: run, outside: outside)
    }

    /// Wall-clock time that follows the virtual clock: `clock.start` plus elapsed virtual time.
    public var now: @Sendable () -> Date {
        let clock = self.clock
        return { clock.date }
    }

    /// A fresh configuration whose sessions send every request to this run's scripted backend,
    /// for a stack that builds its own `URLSession` (completion handlers, delegates and
    /// `data(for:)` alike). Ephemeral: nothing is cached or kept.
    public func urlSessionConfiguration() -> URLSessionConfiguration {
        ScriptedURLProtocol.configuration(run: run)
    }

    /// Declares work the stack hands to something the scenario cannot see (a `DispatchQueue`, a
    /// thread, a callback API) and that will come back with Swift work: the runner waits for it
    /// instead of calling the app idle, and nothing it enqueues counts as an escape. Call
    /// ``OutsideWorkTicket/finish()`` when it is done.
    public func outsideWork(_ label: String) -> OutsideWorkTicket {
        guard let outside else { return OutsideWorkTicket(finish: {}) }
        ScenarioHost.shared.rememberCurrentTask()
        let id = outside.declare(label)
        return OutsideWorkTicket(finish: { outside.finish(id) })
    }
}

/// Work declared with ``DriverContext/outsideWork(_:)``, finished once.
public struct OutsideWorkTicket: Sendable {
    private let done: @Sendable () -> Void

    init(finish: @escaping @Sendable () -> Void) { self.done = finish }

    /// The work is over: the runner no longer waits for it.
    public func finish() { done() }
}
