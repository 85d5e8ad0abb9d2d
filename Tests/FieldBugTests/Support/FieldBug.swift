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
    /// The most steps and exchanges its shrunk copy may have.
    var smallest: (steps: Int, exchanges: Int) = (3, 4)

    init(stack: FieldStack, input: Input, smallest: (steps: Int, exchanges: Int) = (3, 4)) {
        self.stack = stack
        self.input = input
        self.smallest = smallest
    }

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

    /// Runs `body`, the acceptance check `check` of this bug's shrunk copy.
    func expect(_ check: Check, _ body: () throws -> Void) rethrows { try body() }

    /// As ``expect(_:_:)``, for a check that runs scenarios.
    func expect(_ check: Check, _ body: () async throws -> Void) async rethrows { try await body() }
}
