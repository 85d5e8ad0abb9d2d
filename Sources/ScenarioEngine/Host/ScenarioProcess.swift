/// Process-wide settings of the capture.
public enum ScenarioProcess {
    /// Declares that this process runs scenarios and nothing else (a command-line runner or one of
    /// its workers): every Swift job enqueued while a scenario runs is then that scenario's, from
    /// any thread, and work that enters from a thread the scenario does not own is reported as an
    /// escape. Without it (inside `swift test`, beside other tests) only jobs that can be traced to
    /// the scenario are captured.
    public static func claimWholeProcess() { ScenarioHost.shared.claimWholeProcess() }

    /// The command this process was started as, for hints that say what to run next
    /// (`notes-scenarios run --jobs 2`): a team's runner has a name of its own. Set once by the
    /// command line before anything runs; `scenario` elsewhere (a test bundle).
    nonisolated(unsafe) package static var commandName = "scenario"
}
