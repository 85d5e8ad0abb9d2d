import CRuntimeHooks

/// The serial queues of the work running on the runner thread, outermost first (the main queue
/// for main-actor jobs). Inside a blocking wait their next work must wait too, as libdispatch
/// would make it: a serial queue runs one block at a time, and the main queue is the main actor.
/// Used on the runner thread only, so it takes no lock.
struct HeldQueues {
    private var queues: [DispatchCapture.Object] = []

    /// Holds `queue` (a serial one; `nil` holds nothing) until the matching ``release(_:)``. Not a
    /// method taking the work as a closure: the work nests holds and reads them in its waits.
    mutating func hold(_ queue: DispatchCapture.Object?) {
        if let queue { queues.append(queue) }
    }

    mutating func release(_ queue: DispatchCapture.Object?) {
        if queue != nil { queues.removeLast() }
    }

    /// What the held queues keep from running, worked out only inside waits: their serial roots.
    var roots: Roots { Roots(serial: queues.map(DispatchCapture.serialRoot(of:))) }

    struct Roots {
        let serial: [DispatchCapture.Object]

        var isEmpty: Bool { serial.isEmpty }

        /// Whether `work` must wait for the held work to finish.
        func hold(_ work: ScenarioScheduler.Work) -> Bool {
            guard !serial.isEmpty else { return false }
            switch work {
            case .job(_, let lane): return lane == .main && DispatchCapture.mainQueue.map(serial.contains) == true
            case .block(let block): return !block.isConcurrent && serial.contains(block.serialRoot)
            case .delivery: return false
            }
        }
    }
}
