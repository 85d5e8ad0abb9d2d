import Foundation

/// Real time without progress in a scenario: what a stack does when it blocks the scenario's
/// thread for real, which no virtual clock can end.
package enum StallWatch {
    /// What stops a scenario's progress, for the message that names it.
    static let cause =
        "the stack blocked the scenario's thread for real (a deadlock, a lock or a wait that only a thread of its own ends, an endless loop)"

    /// Real time without progress after which a scenario counts as stalled: 60 s, or
    /// `SCENARIO_STALL_SECONDS` from the environment.
    static let limit: Duration = {
        let seconds = ProcessInfo.processInfo.environment["SCENARIO_STALL_SECONDS"].flatMap(Double.init) ?? 60
        return .milliseconds(Int64(max(0.1, min(seconds, 86_400)) * 1000))
    }()

    /// In a command that runs scenarios one at a time in its own process (`run --jobs 1`): a
    /// scenario that goes `limit` without running any of its work ends as an error saying so,
    /// and the process stops owning every thread, so the command can go on (the suite runs the
    /// scenarios after it in a worker process, see ``SuiteRunner``) and write its reports.
    package static func endCommandRunsThatStall(after limit: Duration) {
        endRunsThatStall(after: limit, then: "the scenarios after it run in a worker process")
    }

    /// Ends a run that goes `limit` without progress, and refuses the runs after it in this
    /// process with why (see ``ProcessTurn/lose(_:reason:)``); watched once per process.
    static func endRunsThatStall(after limit: Duration, then whatFollows: String) {
        let host = ScenarioHost.shared
        guard host.startWatchingStalls() else { return }
        @Sendable func endTheRun(_ stalled: ScenarioHost.Progress) {
            let file = stalled.file ?? "a scenario"
            host.abandonRunning()
            host.turn.lose(
                "\(file) made no progress for \(limit) of real time: \(cause). Its thread cannot be taken back, so \(whatFollows).",
                reason:
                    "not run: \(file) blocked the scenario's thread for real earlier in this process, and scenarios share what that thread holds; fix that one first (`\(ScenarioProcess.commandName) run --jobs 2` runs each scenario in a worker process, and loses only that one)"
            )
        }
        watch(every: .seconds(1), for: limit, progress: { host.progress }, stalled: endTheRun)
    }

    /// Calls `stalled` once, on a thread of its own, when `progress` stays the same for `limit`
    /// while a scenario runs, reading it every `tick`.
    static func watch(
        every tick: Duration, for limit: Duration, progress: @escaping @Sendable () -> ScenarioHost.Progress,
        stalled: @escaping @Sendable (ScenarioHost.Progress) -> Void
    ) {
        @Sendable func check(quiet: Duration, now: ScenarioHost.Progress) -> Bool {
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
        every tick: Duration, progress: @escaping @Sendable () -> ScenarioHost.Progress,
        _ reading: @escaping @Sendable (_ quiet: Duration, _ now: ScenarioHost.Progress) -> Bool
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
