import Foundation

/// Real time without progress in a scenario: what a stack does when it blocks the scenario's
/// thread for real, which no virtual clock can end.
enum StallWatch {
    /// What stops a scenario's progress, for the message that names it.
    static let cause =
        "the stack blocked the scenario's thread for real (a deadlock, a lock or a wait that only a thread of its own ends, an endless loop)"

    private static let started = NSLock()
    nonisolated(unsafe) private static var isWatching = false

    /// In a command that runs scenarios in its own process, one at a time: ends the process with
    /// exit status 1 and a message naming the scenario when it goes `limit` without running any of
    /// its work. Its thread cannot be taken back from the stack, so the command cannot go on; in
    /// worker processes (`--jobs 2` and more) only that scenario is lost.
    static func endProcessWhenAScenarioStalls(after limit: Duration) {
        let first = started.withLock {
            defer { isWatching = true }
            return !isWatching
        }
        guard first else { return }
        @Sendable func stop(_ stalled: Capture.Progress) {
            let message =
                "error: \(stalled.file ?? "a scenario") made no progress for \(limit) of real time: \(cause). The run stops here, without reports; with --jobs 2 or more each scenario runs in a worker process, and only this one is lost.\n"
            FileHandle.standardError.write(Data(message.utf8))
            exit(1)
        }
        watch(every: .seconds(1), for: limit, progress: { Capture.progress }, stalled: stop)
    }

    /// Calls `stalled` once, on a thread of its own, when `progress` stays the same for `limit`
    /// while a scenario runs, reading it every `tick`.
    static func watch(
        every tick: Duration, for limit: Duration, progress: @escaping @Sendable () -> Capture.Progress,
        stalled: @escaping @Sendable (Capture.Progress) -> Void
    ) {
        @Sendable func check(quiet: Duration, now: Capture.Progress) -> Bool {
            guard quiet >= limit else { return true }
            stalled(now)
            return false
        }
        follow(every: tick, progress: progress, check)
    }

    /// Reads `progress` every `tick` on a thread of its own (not Dispatch: the capture owns
    /// Dispatch while a scenario runs) and tells `reading` how long it has stayed the same while
    /// a scenario runs (zero when it moved or none runs), until `reading` answers `false`.
    static func follow(
        every tick: Duration, progress: @escaping @Sendable () -> Capture.Progress,
        _ reading: @escaping @Sendable (_ quiet: Duration, _ now: Capture.Progress) -> Bool
    ) {
        let seconds = Double(tick.components.seconds) + Double(tick.components.attoseconds) / 1e18
        let follower = Thread {
            var last = progress()
            var quiet = Duration.zero
            repeat {
                Thread.sleep(forTimeInterval: seconds)
                let now = progress()
                quiet = now.scheduler == nil || now != last ? .zero : quiet + tick
                last = now
            } while reading(quiet, last)
        }
        follower.name = "scenario progress"
        follower.start()
    }
}
