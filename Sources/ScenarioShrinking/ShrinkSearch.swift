import Foundation
import ScenarioEngine

/// The state of one shrink: the smallest document found so far that fails the same way, and
/// the trying of candidates. The passes (in the `ShrinkSearch+` files) offer candidates made from
/// ``best``; ``firstHolding(_:)`` loads, runs and judges them.
final class ShrinkSearch {
    /// What a candidate's failure must be to be taken.
    enum Acceptance {
        /// The kept parts and nothing else (``SameFailure/holds(for:)``): a regression test.
        case exact
        /// The kept parts and no part the best does not fail by: while the parts beside the kept
        /// ones are taken out of the input (``SameFailure/narrows(_:within:)``).
        case narrowing
    }

    let loader: ScenarioLoader
    let oracle: any ShrinkOracle
    /// Where candidates are taken to be: the input's place, so the same invariant files govern them.
    let file: DiscoveredScenario
    let same: SameFailure
    /// The schedule every candidate runs under, its choices counted in the input's steps
    /// (``placed(_:on:)`` finds them in a candidate's).
    private(set) var schedule: JobSchedule
    /// The smallest document so far that fails the same way.
    private(set) var best: ScenarioDocument
    /// The parts of the failure of ``best``'s last run.
    private(set) var bestParts: [FailurePart]
    /// Which exchanges each step of ``best`` used in that run.
    private(set) var bestUses: ExchangeUse.PerStep
    /// The exchanges that served the requests each invariant ``best`` broke names.
    private(set) var bestInvolved: [String: [String]]
    /// Every document that was ``best``, the input first.
    private(set) var accepted: [ScenarioDocument]
    /// Runs so far, and candidates the loader refused (never run).
    private(set) var runs = 0
    private(set) var refused = 0
    /// Other failures met: one example of each, by their primary part, and how often.
    private(set) var otherFailures: [(part: String, count: Int, example: String)] = []
    /// What a candidate's failure must be to be taken; changing it forgets earlier verdicts.
    var acceptance = Acceptance.exact {
        didSet { verdicts = [Self.key(best.text, schedule): true] }
    }
    /// Whether each candidate tried (by text and schedule) failed the same way, and how.
    private var verdicts: [String: Bool] = [:]
    private var partsByKey: [String: [FailurePart]] = [:]
    private var usesByKey: [String: ExchangeUse.PerStep] = [:]
    private var involvedByKey: [String: [String: [String]]] = [:]
    private let isOver: (Int) -> Bool
    private let progress: (ShrinkSearch) -> Void

    init(
        loader: ScenarioLoader, oracle: any ShrinkOracle, file: DiscoveredScenario, same: SameFailure, schedule: JobSchedule,
        input: ScenarioDocument, inputResult: ScenarioResult, isOver: @escaping (Int) -> Bool, progress: @escaping (ShrinkSearch) -> Void
    ) {
        self.loader = loader
        self.oracle = oracle
        self.file = file
        self.same = same
        self.schedule = schedule
        best = input
        bestParts = FailureFingerprint.parts(of: inputResult)
        bestUses = ExchangeUse.perStep(of: inputResult)
        bestInvolved = inputResult.invariantExchanges
        accepted = [input]
        self.isOver = isOver
        self.progress = progress
        verdicts[Self.key(input.text, schedule)] = true
    }

    /// Whether the time is up or the user asked to stop: every pass ends at once, except while
    /// ``finishing``.
    var stopped: Bool { !finishing && isOver(runs) }
    /// Set while the failure is isolated and while the result is made a regression test: few
    /// runs, and what makes the output honest, so no time limit cuts them (a slow machine gets
    /// a larger scenario, never a different verdict).
    var finishing = false
    /// Whether the time limit or a stop ended the cutting passes early.
    var cutShort = false

    /// Takes `candidate` as the new best (a document ``firstHolding(_:)`` accepted).
    func accept(_ candidate: ScenarioDocument) {
        guard candidate != best else { return }
        best = candidate
        bestParts = partsByKey[Self.key(candidate.text, schedule)] ?? bestParts
        bestUses = usesByKey[Self.key(candidate.text, schedule)] ?? [:]
        bestInvolved = involvedByKey[Self.key(candidate.text, schedule)] ?? bestInvolved
        accepted.append(candidate)
        progress(self)
    }

    /// Takes `schedule` as the one candidates run under (a schedule ``firstHolding(_:)``
    /// accepted for ``best``).
    func adopt(_ schedule: JobSchedule) {
        guard schedule != self.schedule else { return }
        self.schedule = schedule
        bestParts = partsByKey[Self.key(best.text, schedule)] ?? bestParts
        bestUses = usesByKey[Self.key(best.text, schedule)] ?? bestUses
        bestInvolved = involvedByKey[Self.key(best.text, schedule)] ?? bestInvolved
        progress(self)
    }

    /// Whether `candidate` fails the same way; when it does, it becomes the best.
    @discardableResult
    func tryAccepting(_ candidate: ScenarioDocument) async -> Bool {
        guard await firstHolding([candidate]) == 0 else { return false }
        accept(candidate)
        return true
    }

    /// The index of the first candidate that loads and fails the same way under ``schedule``, or
    /// `nil`. Candidates run ``ShrinkOracle/width`` at a time, in order; the first in order
    /// wins, so the answer does not depend on how many ran at once. A candidate seen before is
    /// not run again; one the loader refuses is not run.
    func firstHolding(_ candidates: [ScenarioDocument]) async -> Int? {
        await firstHolding(candidates.map { ($0, schedule) })
    }

    /// As ``firstHolding(_:)`` for documents each under its own schedule.
    func firstHolding(_ candidates: [(document: ScenarioDocument, schedule: JobSchedule)]) async -> Int? {
        var batch: [(index: Int, key: String, trial: ShrinkTrial)] = []
        for (index, candidate) in candidates.enumerated() {
            if stopped { return nil }
            let text = candidate.document.text
            let key = Self.key(text, candidate.schedule)
            if let known = verdicts[key] {
                guard known else { continue }
                return await run(batch) ?? index
            }
            guard var trial = trial(text) else {
                verdicts[key] = false
                refused += 1
                continue
            }
            trial.schedule = placed(candidate.schedule, on: candidate.document)
            batch.append((index, key, trial))
            guard batch.count >= oracle.width else { continue }
            if let hit = await run(batch) { return hit }
            batch = []
        }
        return await run(batch)
    }

    /// `schedule`, whose choices are counted in the input's steps, where `document`'s steps
    /// stand now: a choice in a step that is gone goes with it.
    func placed(_ schedule: JobSchedule, on document: ScenarioDocument) -> JobSchedule {
        guard let explicit = schedule.explicit else { return schedule }
        let end = accepted[0].steps.count + 1
        return JobSchedule(
            explicit.moved { step in
                if step == 0 { return 0 }
                if step >= end { return document.steps.count + 1 }
                return document.stepOrigins.firstIndex(of: step).map { $0 + 1 }
            })
    }

    /// What a verdict is kept under: the text and the schedule it ran under.
    private static func key(_ text: String, _ schedule: JobSchedule) -> String { schedule.description + "\n" + text }

    /// A candidate's text as a trial, if the loader takes it.
    func trial(_ text: String, at file: DiscoveredScenario? = nil) -> ShrinkTrial? {
        let file = file ?? self.file
        guard case .success(let scenario) = loader.load(data: Data(text.utf8), file: file.path, id: file.id) else { return nil }
        return ShrinkTrial(text: text, scenario: scenario, file: file, schedule: schedule)
    }

    /// Runs a batch at once and returns the first index in it that failed the same way.
    private func run(_ batch: [(index: Int, key: String, trial: ShrinkTrial)]) async -> Int? {
        guard !batch.isEmpty else { return nil }
        let results = await oracle.run(batch.map(\.trial))
        var hit: Int?
        for (entry, result) in zip(batch, results) {
            runs += 1
            let parts = FailureFingerprint.parts(of: result)
            let holds =
                switch acceptance {
                case .exact: same.holds(for: parts)
                case .narrowing: same.narrows(parts, within: bestParts) && Set(parts) != Set(bestParts)
                }
            verdicts[entry.key] = holds
            if holds {
                partsByKey[entry.key] = parts
                usesByKey[entry.key] = ExchangeUse.perStep(of: result)
                involvedByKey[entry.key] = result.invariantExchanges
                hit = hit ?? entry.index
            } else if result.status != .passed {
                noteOtherFailure(parts, result)
            }
        }
        progress(self)
        return hit
    }

    private func noteOtherFailure(_ parts: [FailurePart], _ result: ScenarioResult) {
        // What set it apart: the parts it failed by beside the kept ones, or, when it lost one
        // of those, how it failed instead.
        let beside = parts.filter { !same.parts.contains($0) }
        let keptAll = same.parts.allSatisfy(parts.contains)
        let shown = keptAll ? beside : FailureFingerprint.primary(of: parts)
        let named = (keptAll ? "the failure kept, and " : "") + shown.map(\.description).joined(separator: ", ")
        if let index = otherFailures.firstIndex(where: { $0.part == named }) {
            otherFailures[index].count += 1
        } else {
            let example = shown.first.flatMap { FailureFingerprint.example(of: $0, in: result) } ?? result.errorMessage ?? ""
            otherFailures.append((named, 1, String(example.prefix(300))))
        }
    }

    // MARK: Ways of cutting

    /// Delta debugging over `units`, each candidate made by `build` from the units it keeps;
    /// returns whether anything went.
    @discardableResult
    func minimize<Unit: Sendable>(_ units: [Unit], build: ([Unit]) -> ScenarioDocument) async -> Bool {
        guard !units.isEmpty, !stopped else { return false }
        let kept = await DeltaDebugging.minimize(units) { subsets in await firstHolding(subsets.map(build)) }
        guard kept.count < units.count else { return false }
        accept(build(kept))
        return true
    }

    /// The smallest `value` in `range` whose candidate fails the same way, by bisection, where
    /// the candidate of `range.upperBound` is the best as it stands; returns whether it went lower.
    @discardableResult
    func lowest(in range: ClosedRange<Int>, build: (Int) -> ScenarioDocument) async -> Bool {
        var (low, high) = (range.lowerBound, range.upperBound)
        while low < high, !stopped {
            let middle = low + (high - low) / 2
            if await tryAccepting(build(middle)) { high = middle } else { low = middle + 1 }
        }
        return high < range.upperBound
    }
}
