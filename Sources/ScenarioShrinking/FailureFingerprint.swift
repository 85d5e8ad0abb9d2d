import Foundation
import ScenarioEngine

/// One way a run failed: a ``FailureSubject`` of its result (an invariant by its id, an unmatched
/// request by method and path, an expectation by its key, an action's outcome by the action).
package typealias FailurePart = FailureSubject

extension FailureSubject {
    /// How `--same` names it: `invariant:ID`, `unmatched:GET /feed`, `outcome:request`,
    /// `unused:ID`, `error:NAME`, `escaped`, `stuck`, or the expectation's key (`state.auth`).
    package var key: String {
        switch kind {
        case .expectation: name
        case .escaped, .stuck: kind.rawValue
        default: "\(kind.rawValue):\(name)"
        }
    }

    /// Reads what ``key`` writes (a user's `--same`); `invariant ID`, as reports say it, too.
    package init(key text: String) {
        for kind in Kind.allCases where kind != .expectation {
            if text == kind.rawValue, kind == .escaped || kind == .stuck {
                self.init(kind)
                return
            }
            for separator in [":", " "] where text.hasPrefix(kind.rawValue + separator) {
                self.init(kind, String(text.dropFirst(kind.rawValue.count + 1)))
                return
            }
        }
        self.init(.expectation, text)
    }
}

/// How a run failed, part by part: its result's subjects, as data.
package enum FailureFingerprint {
    /// Every part of the result's failure, in the order its report gives them (an error first,
    /// then causes, then symptoms in step order), each once; none for a result that passed.
    package static func parts(of result: ScenarioResult) -> [FailurePart] {
        result.status == .passed ? [] : result.failureSubjects
    }

    /// What the result says of `part`, in one line: the message of the check it came from.
    package static func example(of part: FailurePart, in result: ScenarioResult) -> String? {
        if result.errorSubject == part { return result.errorMessage }
        return result.failedChecks.first { $0.check.subjects.contains(part) }?.check.summary
    }

    /// The part that says how a run failed when nothing else is asked: the invariants it broke
    /// when any broke; otherwise the failure its report leads with (an unmatched request, an
    /// escape or stuck run, the first failed expectation or outcome); unused exchanges last, as
    /// they follow from what a run did not do.
    package static func primary(of parts: [FailurePart]) -> [FailurePart] {
        let invariants = parts.filter { $0.kind == .invariant }
        if !invariants.isEmpty { return invariants }
        for kinds: Set<FailurePart.Kind> in [[.unmatched], [.escaped, .stuck, .error], [.expectation, .outcome], [.unused]] {
            if let first = parts.first(where: { kinds.contains($0.kind) }) { return [first] }
        }
        return []
    }
}

/// What a candidate's failure must include to count as the same failure: by default the input's
/// primary part (``FailureFingerprint/primary(of:)``), or the part `--same` names, or every part.
package struct SameFailure: Sendable, Hashable, CustomStringConvertible {
    /// The parts every candidate must fail with.
    package var parts: [FailurePart]

    package init(_ parts: [FailurePart]) { self.parts = parts }

    /// Why `--same` cannot be used with a failure.
    package struct Unknown: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// What to keep of a failure with these parts: `choice` is `nil` (the primary part), `all`,
    /// `invariants` (every invariant it broke, and there must be one), or one part's key.
    package init(choosing choice: String?, of parts: [FailurePart]) throws(Unknown) {
        switch choice {
        case nil:
            self.init(FailureFingerprint.primary(of: parts))
        case "all"?:
            self.init(parts)
        case "invariants"?:
            let broken = parts.filter { $0.kind == .invariant }
            guard !broken.isEmpty else {
                throw Unknown(description: "it breaks no invariant; it fails by " + parts.map(\.description).joined(separator: ", "))
            }
            self.init(broken)
        case let key?:
            let wanted = FailurePart(key: key)
            let named = parts.filter { $0.kind == wanted.kind && $0.name == wanted.name }
            guard !named.isEmpty else {
                throw Unknown(
                    description: "--same \(key) names no part of the failure; its parts are: "
                        + parts.map(\.key).joined(separator: ", ") + " (or all, or invariants)")
            }
            self.init(named)
        }
    }

    /// Whether a run that failed with `candidate` failed this way and no other: a candidate
    /// that fails another way too is another bug, however small (no slippage).
    package func holds(for candidate: [FailurePart]) -> Bool {
        !parts.isEmpty && Set(candidate) == Set(parts)
    }

    /// Whether a run that failed with `candidate` still fails this way and in no way `within`
    /// did not (the input's parts): what a candidate must do while the parts beside the kept
    /// ones are taken out of the input.
    package func narrows(_ candidate: [FailurePart], within: [FailurePart]) -> Bool {
        !parts.isEmpty && parts.allSatisfy(candidate.contains) && candidate.allSatisfy(within.contains)
    }

    /// `invariant a, invariant b`.
    package var description: String { parts.map(\.description).joined(separator: ", ") }
}
