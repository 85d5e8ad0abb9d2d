extension Step {
    /// How reports name the step.
    var label: String {
        let prefix = name.map { "\($0): " } ?? ""
        switch kind {
        case .perform(let call, let parallel, _): return prefix + "do \(call.action)" + (parallel > 1 ? " ×\(parallel)" : "")
        case .group(let calls, _): return prefix + "group " + calls.map(\.action).joined(separator: " + ")
        case .start(let call, let handle): return prefix + "start \(call.action) as \(handle)"
        case .await(let handle, _): return prefix + "await \(handle)"
        case .advance(let duration): return prefix + "advance \(VirtualClock.Instant.format(duration))"
        case .runUntilIdle: return prefix + "run until idle"
        case .check: return prefix + "check"
        }
    }

    /// The action calls a step makes.
    var calls: [ActionCall] {
        switch kind {
        case .perform(let call, _, _), .start(let call, _): [call]
        case .group(let calls, _): calls
        default: []
        }
    }
}
