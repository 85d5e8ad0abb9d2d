import Foundation
import HTTPCore

/// Binds the scenario engine to one client stack. Write one to drive your own stack;
/// everything else (loading, the scripted backend, time, running, reports) is reused.
public protocol ScenarioDriver: Sendable {
    /// A short name for reports, such as `SessionKit`.
    var name: String { get }
    /// Every action steps may name, with its arguments.
    var actions: [ActionSpec] { get }
    /// The keys `given` may hold besides `clock`.
    var givenKeys: [GivenSpec] { get }
    /// Builds a fresh stack for one scenario run.
    /// - Throws: when `given` describes something the stack cannot start from.
    func makeSession(_ context: DriverContext) async throws -> any DriverSession
    /// What the trace importer needs to know about the stack (default: traces are not supported).
    var traceImport: TraceImportSpec { get }
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

/// What a driver gets to build its stack with. Everything the stack does must go through these
/// for the run to be deterministic: the transport, the virtual clock, and the executor for any
/// background task the stack starts (`Task(executorPreference: context.taskExecutor)`).
public struct DriverContext: Sendable {
    /// `given` without `clock`.
    public let given: JSONValue
    /// The backend: the scripted transport directly, or URLSession through the URLProtocol adapter.
    public let transport: any HTTPTransport
    /// The virtual clock.
    public let clock: VirtualClock
    /// The executor every task of the run must prefer.
    public let taskExecutor: any TaskExecutor
    /// The base URL requests are addressed to (hosts are never significant).
    public let baseURL: URL

    /// Creates a context.
    public init(given: JSONValue, transport: any HTTPTransport, clock: VirtualClock, taskExecutor: any TaskExecutor, baseURL: URL) {
        self.given = given
        self.transport = transport
        self.clock = clock
        self.taskExecutor = taskExecutor
        self.baseURL = baseURL
    }

    /// Wall-clock time that follows the virtual clock: `clock.start` plus elapsed virtual time.
    public var now: @Sendable () -> Date {
        let clock = self.clock
        return { clock.date }
    }
}
