import Foundation

/// A driver that runs another driver's stack behind a ``RecordingTransport``, so a scenario run
/// can be written out as a HAR trace (`scenario export`).
public struct RecordingDriver: ScenarioDriver {
    /// The driver whose stack runs.
    public let base: any ScenarioDriver
    /// Receives the recorder of each session the driver makes.
    private let recorders: RecorderBox

    /// Wraps `base`.
    public init(_ base: any ScenarioDriver) {
        self.base = base
        self.recorders = RecorderBox()
    }

    /// The base driver's name.
    public var name: String { base.name }
    /// The base driver's actions.
    public var actions: [ActionSpec] { base.actions }
    /// The base driver's `given` keys.
    public var givenKeys: [GivenSpec] { base.givenKeys }
    /// The base driver's description for import.
    public var traceImport: TraceImportSpec { base.traceImport }

    /// Builds the base driver's stack with a recorder between it and the backend.
    public func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        let recorder = RecordingTransport(wrapping: context.transport, baseURL: context.baseURL, now: context.now)
        recorders.append(recorder)
        return try await base.makeSession(context.replacingTransport(with: recorder))
    }

    /// Everything recorded by every session made so far, in order.
    public func log(redacted: Bool = true) -> HARLog {
        let logs = recorders.all.map { $0.log(redacted: false) }
        let log = HARLog(creator: "SessionScenarios", entries: logs.flatMap(\.entries))
        return redacted ? TraceRedactor().redact(log).log : log
    }
}

/// The recorders a ``RecordingDriver`` made; shared by copies of the driver.
private final class RecorderBox: @unchecked Sendable {
    // Guards `recorders`.
    private let lock = NSLock()
    private var recorders: [RecordingTransport] = []

    func append(_ recorder: RecordingTransport) { lock.withLock { recorders.append(recorder) } }
    var all: [RecordingTransport] { lock.withLock { recorders } }
}
