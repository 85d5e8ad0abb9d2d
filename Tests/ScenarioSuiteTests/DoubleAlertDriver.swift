import ScenarioKit

/// SessionKit with a planted field bug: every alert is shown twice, as a stack that handles each
/// of a burst's 403s on its own might. Used to show that a scenario imported from a capture of
/// the buggy run fails until the bug is fixed.
struct DoubleAlertDriver: ScenarioDriver {
    let base: any ScenarioDriver

    var name: String { base.name + " (double alerts)" }
    var actions: [ActionSpec] { base.actions }
    var givenKeys: [GivenSpec] { base.givenKeys }
    var traceImport: TraceImportSpec { base.traceImport }

    func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        Session(base: try await base.makeSession(context))
    }

    private struct Session: DriverSession {
        let base: any DriverSession

        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            await base.perform(action, arguments: arguments)
        }
        func snapshot() async -> JSONValue { await base.snapshot() }
        func alerts() async -> [JSONValue] { await base.alerts().flatMap { [$0, $0] } }
        func timeline() async -> [JSONValue] { await base.timeline() }
    }
}
