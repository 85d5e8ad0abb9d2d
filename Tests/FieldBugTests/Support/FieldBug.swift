import Foundation
import ScenarioKit
import Testing

/// A field bug of one stack, as it reaches the team: a HAR its user sent (imported with
/// `import --shrink`), or a long session already written as a scenario (shrunk with `shrink`).
struct FieldBug: Sendable, CustomTestStringConvertible {
    /// Where the bug comes from, in the stack's `Traces/`.
    enum Input: Sendable {
        /// `NAME.har`, imported by the stack's runner with `--shrink`.
        case trace(String)
        /// `NAME.script.json`, placed in the stack's scenario folder and shrunk there.
        case session(String)
    }

    /// One acceptance check of the shrunk copy (the letters of the checks' names).
    enum Check: String, Sendable {
        case written, loadsBeside, bundleCopyLoadsBeside, small, relaxesNothing
        case failsByTheInvariant, failsByNothingElse, buggyRunAllScripted
        case passesOnce, fixedRunAllScripted, passesRepeated, passesExplored
    }

    let stack: FieldStack
    let input: Input
    /// What today's shrinker gets wrong on this bug, as measured: each such check is a known
    /// issue until the shrinker rework lands, and fails the suite ("known issue not recorded")
    /// the moment it holds, so the list is kept true.
    let failsToday: Set<Check>

    var name: String {
        switch input {
        case .trace(let name), .session(let name): name
        }
    }

    var testDescription: String {
        switch input {
        case .trace(let name): "\(stack.name) \(name).har"
        case .session(let name): "\(stack.name) \(name).script.json"
        }
    }

    /// Runs `body` as a known issue of today's shrinker when `check` is one it fails.
    func expect(_ check: Check, _ body: () throws -> Void) rethrows {
        try withKnownIssue("shrinker rework (issue 39)") {
            try body()
        } when: {
            failsToday.contains(check)
        }
    }

    /// As ``expect(_:_:)``, for a check that runs scenarios.
    func expect(_ check: Check, _ body: () async throws -> Void) async rethrows {
        try await withKnownIssue("shrinker rework (issue 39)") {
            try await body()
        } when: {
            failsToday.contains(check)
        }
    }
}
