import ScenarioContracts
import ScenarioEngine

/// The exit statuses of `scenario`, stable so CI scripts can rely on them.
enum ExitCode: Int32, Sendable, CaseIterable {
    /// Every scenario passed, every file linted clean, the command did its work; with
    /// `--allow-empty`, also a run or lint that found nothing.
    case success = 0
    /// A scenario failed, errored while running, or was nondeterministic under `--repeat`.
    case failure = 1
    /// A file could not be loaded, read or written (lint problems, a missing path, a bad report),
    /// or nothing was found or selected to run without `--allow-empty`.
    case fileProblem = 2
    /// The command line was wrong: unknown command or option, bad or missing value.
    case usage = 64

    /// What each status means, for `--help`.
    var meaning: String {
        switch self {
        case .success: "every scenario passed (nothing found or selected counts only with --allow-empty)"
        case .failure: "a scenario failed, errored while running, or was nondeterministic under --repeat"
        case .fileProblem:
            "a file could not be loaded, read or written (lint problems, missing path, bad report), or nothing was found or selected to run"
        case .usage: "usage error: unknown command or option, bad or missing value"
        }
    }

    /// The status of a finished run: load problems outrank failures.
    static func of(_ outcome: SuiteRunner.Outcome) -> ExitCode {
        if !outcome.loadFailures.isEmpty { return .fileProblem }
        return outcome.tally.succeeded ? .success : .failure
    }
}
