import Foundation
import ScenarioEngine

/// What a shrink is asked for (`scenario shrink`'s flags).
package struct ShrinkSettings: Sendable {
    /// The part of the failure to keep: `nil` for its primary part, `all`, or a part's key (`--same`).
    package var same: String?
    /// The schedule the input fails under (`--replay-schedule`); `nil`: first in, first out.
    package var schedule: JobSchedule?
    /// How long to search (`--time-limit`); the best found by then is written.
    package var timeLimit: Duration = .seconds(120)
    /// Runs of the input before, and of the result after, that must all fail the same way.
    package var trustRuns = 3
    /// Whether to stop searching now, given the runs so far: Ctrl-C, or a test's own limit.
    package var stop: @Sendable (Int) -> Bool = { _ in false }
    /// Told of every step forward.
    package var progress: @Sendable (ShrinkProgress) -> Void = { _ in }

    package init() {}
}

/// Where a shrink stands, for a progress line.
package struct ShrinkProgress: Sendable {
    package var runs: Int
    package var best: ShrinkSize
    package var timeLeft: Duration
}

/// What a shrink did.
package struct ShrinkReport: Sendable {
    package var input: String
    package var output: String
    package var from: ShrinkSize
    package var to: ShrinkSize
    package var runs: Int
    package var wallTime: Duration
    package var kept: SameFailure
    /// The schedule the result fails under; `nil` for first in, first out.
    package var schedule: JobSchedule?
    /// Whether the time limit or a stop ended the search before no pass could cut more.
    package var stoppedEarly: Bool
    /// Other failures candidates met, by their primary part: how often, and one example.
    package var otherFailures: [(part: String, count: Int, example: String)]

    /// `135 steps, 15 exchanges -> 2 steps, 3 exchanges in 412 runs, 9.8 s; kept: invariant ...`
    package var summary: String {
        let seconds = Double(wallTime.nanoseconds) / 1e9
        return "\(from) -> \(to) in \(runs) runs, \(String(format: "%.1f", seconds)) s; kept: \(kept)"
    }
}

/// How a shrink ended.
package enum ShrinkOutcome: Sendable {
    /// The result is written.
    case written(ShrinkReport)
    /// The input passes: there is no failure to shrink.
    case passes(String)
    /// The input does not load: every problem, with its place.
    case unloadable(LoadFailure)
    /// It cannot be shrunk: it cannot be read, its failure does not repeat, the schedule no
    /// longer fails, `--same` names no part of the failure, or the result did not hold.
    case refused(String)
}

/// Shrinks a failing scenario to the smallest one it can find that fails the same way
/// (Documentation/shrinking.md): the input must fail the same way `trustRuns` times, passes cut
/// it cheapest first until none can cut more or the time is up, and the result is written once
/// it too failed the same way `trustRuns` times where it is written.
package struct ScenarioShrinker: Sendable {
    let loader: ScenarioLoader
    let oracle: any ShrinkOracle
    let settings: ShrinkSettings

    package init(loader: ScenarioLoader, oracle: any ShrinkOracle, settings: ShrinkSettings) {
        self.loader = loader
        self.oracle = oracle
        self.settings = settings
    }

    /// A shrinker for `driver`: candidates run in this process, or `jobs` at once in workers
    /// started as `workers` says when there are more than one.
    package init(driver: any ScenarioDriver, plan: RunPlan, jobs: Int = 1, workers: WorkerLaunch? = nil, settings: ShrinkSettings) {
        var oracle: any ShrinkOracle = InProcessOracle(driver: driver, plan: plan)
        #if os(macOS) || os(Linux) || os(Windows)
            if let workers, jobs > 1 {
                oracle = WorkerOracle(launch: workers, plan: plan, width: jobs)
            } else if let workers {
                // As `run --jobs 1`: a candidate that blocks this process's scenario thread for
                // good is ended, and the candidates after it run in a worker.
                if ScenarioHost.shared.mode == .wholeProcess { StallWatch.endCommandRunsThatStall(after: workers.stallLimit) }
                oracle = InProcessOracle(driver: driver, plan: plan, fallback: WorkerOracle(launch: workers, plan: plan, width: 1))
            }
        #endif
        self.init(loader: ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys), oracle: oracle, settings: settings)
    }

    /// Shrinks the scenario file `input` into `folder`, named after its id (`folder/field/session.json`):
    /// what a run that shrinks every failing scenario calls.
    package func shrink(_ input: DiscoveredScenario, into folder: String) async -> ShrinkOutcome {
        await shrink(input, to: (folder as NSString).appendingPathComponent(input.id + ".json"))
    }

    /// Shrinks the scenario file `input` and writes the result to `output`.
    package func shrink(_ input: DiscoveredScenario, to output: String) async -> ShrinkOutcome {
        let started = ContinuousClock.now
        let text: String
        do {
            text = String(decoding: try FileBytes.read(input.path), as: UTF8.self)
        } catch {
            return .refused("cannot read \(input.path): \(error)")
        }
        if case .failure(let failure) = loader.load(data: Data(text.utf8), file: input.path, id: input.id) {
            return .unloadable(failure)
        }
        guard let document = ScenarioDocument(text: text)?.withExchangeIDs() else {
            return .refused("\(input.path) is not a JSON object")
        }
        let trust: Trust
        switch await trusted(document, input) {
        case .success(let found): trust = found
        case .failure(let stop): return stop.outcome
        }
        let deadline = started + settings.timeLimit
        let settings = self.settings
        let search = ShrinkSearch(
            loader: loader, oracle: oracle, file: input, same: trust.same, schedule: trust.schedule, input: document,
            inputResult: trust.result, isOver: { ContinuousClock.now >= deadline || settings.stop($0) },
            progress: { search in
                settings.progress(ShrinkProgress(runs: search.runs, best: search.best.size, timeLeft: deadline - ContinuousClock.now))
            })
        let beside = await search.isolate()
        guard beside.isEmpty else {
            return .refused(
                "\(input.path) fails by \(beside.map(\.description).joined(separator: ", ")) beside the failure kept (\(trust.same)), and a shrunk scenario fails by what it keeps and nothing else: "
                    + "script or fix what fails beside it first, or keep it too (--same all)")
        }
        await Self.search(search)
        return await write(search, input: input, output: output, runsBefore: trust.runs, started: started)
    }

    /// The passes, cheapest first, until a round cuts nothing or the time is up; then what makes
    /// the result a regression test (a fixed stack's fewer requests tolerated, the expectations
    /// that still hold back), which no time limit cuts.
    private static func search(_ search: ShrinkSearch) async {
        // Checks that are no part of the failure would hold every step in place: they go first,
        // and those that still hold come back at the end.
        _ = await search.pruneExpectations()
        _ = await search.shrinkSchedule()
        _ = await search.truncateSteps()
        let passes = [
            search.removeSteps, search.removeExchanges, search.lowerCounts, search.shortenTime, search.pruneMembers,
            search.pruneExpectations, search.shrinkSchedule,
        ]
        for _ in 0..<20 {
            var changed = false
            for pass in passes where !search.stopped { changed = await pass() || changed }
            if !changed || search.stopped { break }
        }
        search.cutShort = search.stopped
        search.finishing = true
        _ = await search.tolerateWhatTheBugAloneNeeded()
        _ = await search.restoreExpectations()
    }

    // MARK: Trust

    /// The input's failure, once it has failed the same way every time.
    private struct Trust {
        var same: SameFailure
        /// The first run's result.
        var result: ScenarioResult
        var schedule: JobSchedule
        var runs: Int
    }

    private struct Stop: Error {
        var outcome: ShrinkOutcome
    }

    /// Runs the input `trustRuns` times (under `--replay-schedule`, first once as that schedule
    /// says, to write its choices down as an explicit schedule the passes can cut).
    private func trusted(_ document: ScenarioDocument, _ input: DiscoveredScenario) async -> Result<Trust, Stop> {
        func stop(_ outcome: ShrinkOutcome) -> Result<Trust, Stop> { .failure(Stop(outcome: outcome)) }
        let replay = settings.schedule.map { " under --replay-schedule \($0)" } ?? ""
        let noLongerFails = "\(input.path) passes\(replay): that schedule no longer fails it, so it has no failure to shrink"
        guard case .success(let scenario) = loader.load(data: Data(document.text.utf8), file: input.path, id: input.id) else {
            return stop(.refused("\(input.path) does not load"))
        }
        var trial = ShrinkTrial(text: document.text, scenario: scenario, file: input, schedule: settings.schedule ?? .fifo)
        var runs = 0
        if trial.schedule.explicit == nil, !trial.schedule.isFIFO {
            let result = await oracle.run(trial)
            runs += 1
            guard result.status != .passed else { return stop(.refused(noLongerFails)) }
            trial.schedule = JobSchedule(result.scheduleTaken ?? ExplicitSchedule())
        }
        var first: (result: ScenarioResult, parts: [FailurePart], same: SameFailure)?
        let results = await oracle.run(Array(repeating: trial, count: max(1, settings.trustRuns)))
        runs += results.count
        for (run, result) in zip(1..., results) {
            let parts = FailureFingerprint.parts(of: result)
            guard let (_, firstParts, kept) = first else {
                guard result.status != .passed else {
                    return stop(
                        settings.schedule == nil ? .passes("\(input.path) passes: there is no failure to shrink") : .refused(noLongerFails))
                }
                do {
                    first = (result, parts, try SameFailure(choosing: settings.same, of: parts))
                } catch {
                    return stop(.refused(error.description))
                }
                continue
            }
            // Every run fails every way the first did, and no other.
            guard Set(parts) == Set(firstParts) else {
                let how =
                    result.status == .passed
                    ? "passed" : "failed another way (\(parts.map(\.description).joined(separator: ", ")))"
                return stop(
                    .refused(
                        "the failure of \(input.path) does not repeat: run 1 failed by \(firstParts.map(\.description).joined(separator: ", ")) (kept: \(kept)), run \(run) of \(settings.trustRuns) \(how)\(replay). "
                            + "A flaky input cannot be shrunk: make it fail the same way every time first ('\(ScenarioProcess.commandName) run --repeat 10' shows how it varies)"
                    ))
            }
        }
        guard let first else { return stop(.refused("\(input.path) could not be run")) }
        return .success(Trust(same: first.same, result: first.result, schedule: trial.schedule, runs: runs))
    }

    // MARK: The result

    /// Writes the newest best that fails the same way `trustRuns` times at `output` (an older
    /// one when a newer does not: the input is the oldest).
    private func write(_ search: ShrinkSearch, input: DiscoveredScenario, output: String, runsBefore: Int, started: ContinuousClock.Instant)
        async -> ShrinkOutcome
    {
        let from = search.accepted[0].size
        var verifications = 0
        for candidate in search.accepted.reversed() {
            let placed = search.placed(search.schedule, on: candidate)
            let schedule = placed.isFIFO ? nil : placed
            let file = ShrunkFile(input: input, output: output, same: search.same, schedule: schedule)
            let finished = file.finished(candidate, from: from)
            // Checked where it is written, or where the input is when only there the invariants
            // it fails by govern it (the copy a test bundle writes among its reports).
            let target =
                file.keptInvariantsGovernOutput
                ? DiscoveredScenario(path: output, id: ShrunkFile.id(of: output)) : input
            guard var trial = search.trial(finished.text, at: target) else { continue }
            trial.schedule = placed
            let results = await oracle.run(Array(repeating: trial, count: max(1, settings.trustRuns)))
            verifications += results.count
            guard results.allSatisfy({ search.same.holds(for: FailureFingerprint.parts(of: $0)) }) else { continue }
            do {
                let writer = try ReportOutput(path: output)
                try writer.write(finished.text)
                try writer.commit()
            } catch {
                return .refused("cannot write \(output): \((error as? ReportWriteError)?.reason ?? "\(error)")")
            }
            return .written(
                ShrinkReport(
                    input: input.path, output: output, from: from, to: candidate.size, runs: runsBefore + search.runs + verifications,
                    wallTime: ContinuousClock.now - started, kept: search.same, schedule: schedule, stoppedEarly: search.cutShort,
                    otherFailures: search.otherFailures))
        }
        return .refused(
            "no shrunk scenario failed the same way, and by nothing else, \(settings.trustRuns) times at \(output) (the invariant files there differ, or the failure is flaky); nothing written"
        )
    }
}
