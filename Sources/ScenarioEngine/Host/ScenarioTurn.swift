import Foundation

/// A run's turn at the process. What the capture installs is process-wide (the runtime's hooks,
/// Dispatch's entry points, the run that serves requests that name no run), so scenarios in one
/// process take turns. Begun and ended on the runner thread.
struct ScenarioTurn {
    /// The run's key on the URLSession route (see ``ScriptedURLProtocol``).
    let run: String
    private let scheduler: ScenarioScheduler

    /// Waits for the process, then takes it for the run of `scheduler`, whose `backend` serves its
    /// URLSession requests; `ending` ends the run early if its thread never comes back (see
    /// ``ProcessTurn/lose(_:reason:)``).
    static func begin(
        for scheduler: ScenarioScheduler, serving backend: ScriptedBackend, ending: @escaping @Sendable (String) -> Void
    ) throws -> ScenarioTurn {
        try ScenarioHost.shared.turn.take(endingWith: ending)
        do {
            try RuntimeHooks.install()
        } catch {
            ScenarioHost.shared.turn.give()
            throw error
        }
        ScenarioHost.shared.begin(scheduler)
        let run = ScenarioHost.shared.runs.add(backend)
        ScriptedURLProtocol.serveUnrouted(run)
        return ScenarioTurn(run: run, scheduler: scheduler)
    }

    /// Gives the process back, once.
    func end() {
        ScriptedURLProtocol.serveUnrouted(nil)
        ScenarioHost.shared.runs.remove(run)
        ScenarioHost.shared.end(scheduler)
        RuntimeHooks.remove()
        ScenarioHost.shared.turn.give()
    }

    /// Blocks the calling thread for good: its turn ended with the app's code still on its stack,
    /// which must never run again (its clocks are real again, so this waits for real).
    static func parkForever() -> Never {
        let never = NSCondition()
        never.lock()
        while true { never.wait() }
    }
}
