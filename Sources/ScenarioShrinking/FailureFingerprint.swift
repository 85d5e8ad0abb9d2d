import Foundation
import ScenarioEngine

/// One way a run failed, named so that it reads the same in every run that fails that way,
/// whatever else changed: an invariant by its id, an unmatched request by method and path, an
/// expectation by its key (`state.auth`), an action's outcome by the action.
package struct FailurePart: Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case invariant, unmatched, escaped, stuck, error, outcome, unused
        /// A failed expectation of `expect` or a `check` step (`state.auth`, `alerts`, `requests.total`).
        case expectation
    }

    package var kind: Kind
    /// The id, request, key or action it is about; empty for `escaped` and `stuck`.
    package var name: String
    /// What a state, alert, timeline or outcome check saw instead (`got "unauthenticated"`,
    /// `failed with forbidden`): a candidate that fails at the same key with another value
    /// fails another way. Counts of requests are not kept: they change as steps go.
    package var observed: String?

    package init(_ kind: Kind, _ name: String = "", observed: String? = nil) {
        self.kind = kind
        self.name = name
        self.observed = observed
    }

    /// How `--same` names it: `invariant:ID`, `unmatched:GET /feed`, `outcome:request`,
    /// `unused:ID`, `error:MESSAGE`, `escaped`, `stuck`, or the expectation's key (`state.auth`).
    package var key: String {
        switch kind {
        case .expectation: name
        case .escaped, .stuck: kind.rawValue
        default: "\(kind.rawValue):\(name)"
        }
    }

    /// How a report says it: `invariant refresh-token-spent-once`, `state.auth: got "loading"`.
    package var description: String { observed.map { "\(named): \($0)" } ?? named }

    private var named: String {
        switch kind {
        case .invariant: "invariant \(name)"
        case .unmatched: "unmatched request \(name)"
        case .unused: "unused exchange \(name)"
        case .outcome: "outcome of \(name)"
        case .error: "error: \(name)"
        case .escaped, .stuck: kind.rawValue
        case .expectation: name
        }
    }

    /// Reads what ``key`` writes; `invariant ID` (as reports say it) is taken too.
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

    /// Whether it is a cause the report leads with rather than a symptom.
    var isCause: Bool { kind == .unmatched || kind == .unused }
}

/// How a run failed, part by part, read from its result. The one place that knows how a
/// result says what failed: the shrinker keeps a candidate only when its parts include the
/// parts it must keep (``SameFailure``).
package enum FailureFingerprint {
    /// Every part of the result's failure, in the order its report gives them (an error first,
    /// then causes, then symptoms in step order), each once; none for a result that passed.
    package static func parts(of result: ScenarioResult) -> [FailurePart] {
        var parts: [FailurePart] = []
        if result.status == .error, let message = result.errorMessage {
            parts.append(errorPart(message))
        }
        for (step, check) in result.failedChecks {
            parts += Self.parts(of: check, in: step)
        }
        var seen = Set<FailurePart>()
        return parts.filter { seen.insert($0).inserted }
    }

    /// What the result says of `part`, in one line: the message it came from.
    package static func example(of part: FailurePart, in result: ScenarioResult) -> String? {
        if result.status == .error, let message = result.errorMessage, errorPart(message) == part { return message }
        return result.failedChecks.first { parts(of: $0.check, in: $0.step).contains(part) }?.check.summary
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

    private static func parts(of check: AssertionResult, in step: StepResult) -> [FailurePart] {
        let label = check.label
        if check.isScheduleNote || label == "repeat" { return [] }
        if label.hasPrefix("invariant ") { return [FailurePart(.invariant, String(label.dropFirst("invariant ".count)))] }
        if label == AssertionResult.unmatchedRequests {
            return (check.actual ?? "").split(separator: "\n").compactMap(unmatchedRequest).map { FailurePart(.unmatched, $0) }
        }
        if label == AssertionResult.unusedExchanges {
            // `'feed-403' served 0 of 10`
            return (check.actual ?? "").split(separator: "\n").compactMap { line in
                line.split(separator: "'", omittingEmptySubsequences: false).dropFirst().first.map { FailurePart(.unused, String($0)) }
            }
        }
        // Counts change as steps go; the log's first misfit is what it saw.
        if label == "requests.log" { return [FailurePart(.expectation, label, observed: check.message)] }
        if label.hasPrefix("requests.") { return [FailurePart(.expectation, label)] }
        if label == "state" || label == "alerts" || label == "timeline" {
            // One part per mismatch: `state.auth: expected "x", got "y"; state.screen: ...`.
            let found = mismatches(check.message).map { path, got in
                // Alerts and timelines by their name alone: an element's index moves as a run changes.
                FailurePart(.expectation, label == "state" ? String(path.prefix { $0 != "[" }) : label, observed: "got \(got)")
            }
            return found.isEmpty ? [FailurePart(.expectation, label)] : found
        }
        let action = label.hasPrefix("outcome of ") ? String(label.dropFirst("outcome of ".count)) : performedAction(step.label) ?? label
        // `outcome`, `copy 3 of 5`, `copies 1-5 of 5` are a `do` step's: the step's label names the action.
        let seen = mismatches(check.message).map { path, got in path.isEmpty ? "got \(got)" : "\(path) got \(got)" }
        return [FailurePart(.outcome, action, observed: seen.isEmpty ? check.message : seen.joined(separator: "; "))]
    }

    /// The places and values of `path: expected X, got Y; ...` (how ``JSONMatch`` says it).
    private static func mismatches(_ message: String) -> [(path: String, got: String)] {
        message.components(separatedBy: "; ").compactMap { segment in
            let segment = segment.hasPrefix("expected ") ? ": " + segment : segment
            guard let expected = segment.range(of: ": expected "),
                let got = segment.range(of: ", got ", range: expected.upperBound..<segment.endIndex)
            else { return nil }
            return (String(segment[..<expected.lowerBound]), String(segment[got.upperBound...]))
        }
    }

    /// `GET /feed` from `#3 GET /feed?page=2; nearest: ...`.
    private static func unmatchedRequest(_ line: Substring) -> String? {
        let words = line.split(separator: " ", maxSplits: 2)
        guard words.count == 3, words[0].hasPrefix("#") else { return nil }
        let path = words[2].prefix { $0 != "?" && $0 != ";" && $0 != " " }
        return "\(words[1]) \(path)"
    }

    /// The action of a `do` step's label: `request` from `burst: do request ×5`.
    private static func performedAction(_ label: String) -> String? {
        guard let range = label.range(of: "do ", options: .backwards) else { return nil }
        return label[range.upperBound...].split(separator: " ").first.map(String.init)
    }

    /// An error by what it is: escaped, stuck, or the message's first clause with its numbers
    /// left out (they count jobs and seconds, which change as a scenario shrinks).
    private static func errorPart(_ message: String) -> FailurePart {
        var text = Substring(message)
        // An explored schedule's note leads the message: `failed under ...; replay it with X: message`.
        if text.hasPrefix("failed under "), let advice = text.range(of: "; replay it with "),
            let end = text[advice.upperBound...].range(of: ": ")
        {
            text = text[end.upperBound...]
        }
        if text.hasPrefix("escaped:") { return FailurePart(.escaped) }
        if text.hasPrefix("stuck:") { return FailurePart(.stuck) }
        let clause = text.prefix { $0 != ":" && $0 != ";" && $0 != "(" && $0 != "\n" }
        var words = clause.split(separator: " ").map { $0.allSatisfy(\.isNumber) ? "N" : String($0) }
        if words.count > 12 { words = Array(words.prefix(12)) }
        return FailurePart(.error, words.joined(separator: " "))
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

    /// Whether a run that failed with `candidate` failed this way.
    package func holds(for candidate: [FailurePart]) -> Bool {
        !parts.isEmpty && parts.allSatisfy(candidate.contains)
    }

    /// `invariant a, invariant b`.
    package var description: String { parts.map(\.description).joined(separator: ", ") }
}
