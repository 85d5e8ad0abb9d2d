/// What a run says when a step cannot finish: the actions still waiting, and what the engine
/// sees them wait on (answers held back, timers on the clock).
struct StuckMessage {
    let clock: VirtualClock
    let backend: ScriptedBackend
    let timeLimit: Duration

    /// `stuck: 'get' (×3) can never finish; …`: copies of one action are named once.
    func text(waitingActions actions: [String]) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for action in actions {
            if counts[action] == nil { order.append(action) }
            counts[action, default: 0] += 1
        }
        let names = order.map { action in
            let count = counts[action, default: 1]
            return count > 1 ? "'\(action)' (×\(count))" : "'\(action)'"
        }.joined(separator: ", ")
        if clock.nextDeadline == nil {
            return "stuck: \(names) can never finish; nothing is scheduled on the clock. Waiting on: \(waitingSummary)"
        }
        let limit = VirtualClock.Instant.format(timeLimit)
        return "stuck: \(names) did not finish within the time limit (\(limit) of virtual time). Waiting on: \(waitingSummary)"
    }

    /// What the run waits on, as far as the engine can see.
    var waitingSummary: String {
        var parts = backend.heldDescriptions
        let sleeping = clock.waitingDescriptions
        if !sleeping.isEmpty {
            parts.append("\(sleeping.count) timer(s) on the clock, next: \(sleeping[0])")
        }
        let seen =
            parts.isEmpty
            ? "nothing the engine can see (an action awaiting something outside the scenario?)" : parts.joined(separator: "; ")
        return seen + hostAdvice
    }

    /// Why work may have left the scenario where only Swift concurrency is captured.
    static let concurrencyOnlyAdvice =
        "; with capture of Swift concurrency only (Apple platforms, or SCENARIO_CAPTURE=concurrencyOnly), the stack's DispatchQueue hops, Dispatch timers and blocking waits run on other threads and in real time"

    /// What the host cannot see, where that may be why (see ``ScenarioHost``).
    var hostAdvice: String {
        let host = ScenarioHost.shared
        if host.level == .concurrencyOnly { return Self.concurrencyOnlyAdvice + ": declare such work with context.outsideWork(_:)" }
        if host.mode == .besideOtherTests, backend.heldDescriptions.isEmpty, clock.waitingDescriptions.isEmpty {
            return
                "; beside other tests (\(host.summary)), work that reaches the scenario from a thread it does not own is not counted as its own: `\(ScenarioProcess.commandName) run` runs it in a process of its own, where such work is reported as an escape"
        }
        return ""
    }
}
