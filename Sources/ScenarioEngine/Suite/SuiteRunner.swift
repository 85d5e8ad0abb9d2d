import Foundation

/// Runs a suite: discovers scenario files, loads them, selects (filter, tags, shard), runs the
/// selected ones on parallel workers, and returns the result tree in input order.
///
/// Files that do not load become `.error` results (and are counted in ``Outcome/loadFailures``);
/// scenarios left out by the filter or tags become `.skipped` ones; scenarios of other shards
/// are left out. The CLI and tests share this type.
package struct SuiteRunner: Sendable {
    /// How the suite runs.
    package struct Configuration: Sendable {
        /// Which scenarios run.
        package var selection: ScenarioSelection
        /// How many scenarios run at once (at least 1).
        package var jobs: Int
        /// Stop starting scenarios after the first failure or error; the rest are skipped.
        package var failFast: Bool
        /// How each scenario runs.
        package var plan: RunPlan
        /// Worker processes to run scenarios in when `jobs` is more than 1; without them scenarios
        /// take turns in this process (what the capture installs is process-wide).
        package var workers: WorkerLaunch?
        /// What is done with a failed result before it is reported, in this process or a
        /// worker's (``WorkerPool/serve(driver:followUp:)`` gets its own).
        package var followUp: (any FailureFollowUp)?

        /// Creates a configuration: everything, one worker per active processor, once each.
        package init(
            selection: ScenarioSelection = .all, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, failFast: Bool = false,
            plan: RunPlan = RunPlan(), workers: WorkerLaunch? = nil
        ) {
            self.workers = workers
            self.selection = selection
            self.jobs = jobs
            self.failFast = failFast
            self.plan = plan
        }
    }

    /// One discovered scenario file and what loading it gave.
    package struct Entry: Sendable {
        /// The file's path.
        package var path: String
        /// The scenario's id.
        package var id: String
        /// The scenario, or every problem found in the file.
        package var loaded: Result<Scenario, LoadFailure>

        /// Creates an entry.
        package init(path: String, id: String, loaded: Result<Scenario, LoadFailure>) {
            self.path = path
            self.id = id
            self.loaded = loaded
        }
    }

    /// What a suite run gives.
    package struct Outcome: Sendable {
        /// The results kept (see ``Retention``), in input order.
        package var run: RunResult
        /// How every reported scenario ended, kept or not.
        package var tally: RunTally
        /// The files that could not be loaded (also reported as `.error` results).
        package var loadFailures: [LoadFailure]
        /// How many scenarios belong to other shards and were left out.
        package var otherShards: Int

        /// Creates an outcome.
        package init(run: RunResult, tally: RunTally? = nil, loadFailures: [LoadFailure], otherShards: Int) {
            self.run = run
            self.tally = tally ?? run.tally
            self.loadFailures = loadFailures
            self.otherShards = otherShards
        }
    }

    /// Which results an ``Outcome`` keeps once they have been handed on.
    package enum Retention: Sendable, Hashable {
        /// Every result.
        case all
        /// Failed and errored ones only: a long run that streams its results into reports holds
        /// what its closing console section needs, not every transcript.
        case problems
    }

    /// Why a scenario left for later by `--fail-fast` did not run.
    package static let failFastReason = "not run: --fail-fast stopped the run after a failure"

    private let driver: any ScenarioDriver
    private let configuration: Configuration

    /// Creates a suite runner for a driver.
    package init(driver: any ScenarioDriver, configuration: Configuration = Configuration()) {
        self.driver = driver
        self.configuration = configuration
    }

    /// Finds and loads every scenario under the paths (files or folders, recursively), in order.
    /// - Throws: what ``ScenarioDiscovery`` throws for a path that does not exist.
    package func load(_ paths: [String]) throws -> [Entry] {
        let loader = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
        return try ScenarioDiscovery.find(paths).map { found in
            Entry(path: found.path, id: found.id, loaded: loader.load(contentsOf: found.path, id: found.id))
        }
    }

    /// Finds every scenario file under the paths (files or folders, recursively), in order,
    /// without reading them.
    /// - Throws: what ``ScenarioDiscovery`` throws for a path that does not exist.
    package func discover(_ paths: [String]) throws -> [DiscoveredScenario] {
        try ScenarioDiscovery.find(paths)
    }

    /// Finds and runs every scenario under the paths.
    /// - Parameter progress: called once per reported scenario as soon as its result is known.
    /// - Throws: what ``ScenarioDiscovery`` throws for a path that does not exist.
    package func run(_ paths: [String], progress: @escaping @Sendable (ScenarioResult) -> Void = { _ in }) async throws -> Outcome {
        await run(files: try discover(paths), keeping: .all) { result, _ in progress(result) }
    }

    /// Selects and runs loaded entries.
    /// - Parameter progress: called once per reported scenario as soon as its result is known
    ///   (skipped and unloadable ones first, the others as they finish).
    package func run(entries: [Entry], progress: @escaping @Sendable (ScenarioResult) -> Void = { _ in }) async -> Outcome {
        await run(entries.map(Source.loaded), keeping: .all) { result, _ in progress(result) }
    }

    /// Selects and runs scenario files, reading each as late as possible: in the worker that
    /// runs it, and in this process only when the selection needs its name or tags.
    /// - Parameters:
    ///   - retention: which results the outcome keeps after `receive` has seen them.
    ///   - receive: called once per reported scenario as soon as its result is known, with the
    ///     result's position in input order (among the reported ones).
    package func run(
        files: [DiscoveredScenario], keeping retention: Retention, receive: (ScenarioResult, Int) -> Void
    ) async -> Outcome {
        await run(files.map(Source.unread), keeping: retention, receive: receive)
    }

    /// A scenario to decide on: already loaded, or a file not read yet. A run holds one per
    /// scenario until it ends: a loaded scenario is boxed (`indirect`), so a long list of files
    /// costs a path each, not the size of a `Scenario`.
    private enum Source {
        indirect case loaded(Entry)
        case unread(DiscoveredScenario)
    }

    /// A scenario chosen to run (boxed when loaded, as in ``Source``).
    private enum Work: Sendable {
        indirect case scenario(Scenario)
        case file(DiscoveredScenario)
    }

    private func run(_ sources: [Source], keeping retention: Retention, receive: (ScenarioResult, Int) -> Void) async -> Outcome {
        let (driver, configuration) = (self.driver, self.configuration)
        let clock = ContinuousClock()
        let start = clock.now
        var kept: [(slot: Int, result: ScenarioResult)] = []
        var tally = RunTally()
        var loadFailures: [LoadFailure] = []
        var otherShards = 0
        var slots = 0
        var pending: [(slot: Int, work: Work)] = []
        let loader = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)

        func report(_ result: ScenarioResult, at slot: Int) {
            tally.add(result.status)
            receive(result, slot)
            if retention == .all || result.status == .failed || result.status == .error { kept.append((slot, result)) }
        }
        func decide(_ entry: Entry) {
            switch entry.loaded {
            case .failure(let failure):
                guard configuration.selection.decideUnloaded(id: entry.id) != .otherShard else {
                    otherShards += 1
                    return
                }
                loadFailures.append(failure)
                slots += 1
                report(ScenarioResult(unloadable: DiscoveredScenario(path: entry.path, id: entry.id), failure), at: slots - 1)
            case .success(let scenario):
                switch configuration.selection.decide(id: scenario.id, name: scenario.name, tags: scenario.tags) {
                case .otherShard:
                    otherShards += 1
                case .skip(let reason):
                    slots += 1
                    report(Self.skippedResult(scenario, reason: reason), at: slots - 1)
                case .run:
                    pending.append((slots, .scenario(scenario)))
                    slots += 1
                }
            }
        }

        for source in sources {
            switch source {
            case .loaded(let entry):
                decide(entry)
            case .unread(let file) where configuration.selection.needsContent:
                decide(Entry(path: file.path, id: file.id, loaded: loader.load(contentsOf: file.path, id: file.id)))
            case .unread(let file):
                if configuration.selection.decideUnloaded(id: file.id) == .otherShard {
                    otherShards += 1
                } else {
                    pending.append((slots, .file(file)))
                    slots += 1
                }
            }
        }

        let jobs = max(1, configuration.jobs)
        #if os(macOS) || os(Linux) || os(Windows)
            // Workers start on first use: with one job, only once a stack kept this process's
            // scenario thread for good (``ProcessTurn/isLost``), for the scenarios after it.
            let pool = configuration.workers.map(WorkerPool.init)
            if let stallLimit = configuration.workers?.stallLimit, ScenarioHost.shared.mode == .wholeProcess, jobs == 1 {
                StallWatch.endCommandRunsThatStall(after: stallLimit)
            }
        #endif
        @Sendable func execute(_ work: Work) async -> Executed {
            #if os(macOS) || os(Linux) || os(Windows)
                if let pool, jobs > 1 || ScenarioHost.shared.isLost {
                    return await Self.execute(work, in: pool, plan: configuration.plan, loader: loader)
                }
            #endif
            return await Self.execute(work, driver: driver, configuration: configuration, loader: loader)
        }
        let failFast = configuration.failFast
        await withTaskGroup(of: (Int, Executed).self) { group in
            var queue = pending.makeIterator()
            var stopped = false
            for _ in 0..<jobs {
                guard let next = queue.next() else { break }
                group.addTask { (next.slot, await execute(next.work)) }
            }
            while let (slot, executed) = await group.next() {
                if let failure = executed.loadFailure { loadFailures.append(failure) }
                report(executed.result, at: slot)
                if failFast, executed.result.status == .failed || executed.result.status == .error { stopped = true }
                if !stopped, let next = queue.next() {
                    group.addTask { (next.slot, await execute(next.work)) }
                }
            }
            while let next = queue.next() {
                // Not run, but read: a file that does not load is an error whatever the run did.
                let scenario: Scenario
                switch next.work {
                case .scenario(let loaded): scenario = loaded
                case .file(let file):
                    switch loader.load(contentsOf: file.path, id: file.id) {
                    case .success(let loaded): scenario = loaded
                    case .failure(let failure):
                        loadFailures.append(failure)
                        report(ScenarioResult(unloadable: file, failure), at: next.slot)
                        continue
                    }
                }
                report(Self.skippedResult(scenario, reason: Self.failFastReason), at: next.slot)
            }
        }

        tally.wallTime = clock.now - start
        kept.sort { $0.slot < $1.slot }
        let run = RunResult(scenarios: kept.map(\.result), wallTime: tally.wallTime)
        return Outcome(run: run, tally: tally, loadFailures: loadFailures, otherShards: otherShards)
    }

    /// A scenario's result, and what made its file unloadable when it was.
    package struct Executed: Sendable {
        package var result: ScenarioResult
        var loadFailure: LoadFailure?
    }

    /// Runs work in this process, reading its file first when it has not been read.
    private static func execute(_ work: Work, driver: any ScenarioDriver, configuration: Configuration, loader: ScenarioLoader) async
        -> Executed
    {
        switch work {
        case .scenario(let scenario):
            return Executed(result: await execute(scenario, driver: driver, configuration: configuration))
        case .file(let file):
            return await execute(file, loader: loader) { await execute($0, driver: driver, configuration: configuration) }
        }
    }

    /// Reads a file and runs what it holds, or reports why it could not be read.
    static func execute(_ file: DiscoveredScenario, loader: ScenarioLoader, run: (Scenario) async -> ScenarioResult) async -> Executed {
        await execute(file, loaded: loader.load(contentsOf: file.path, id: file.id), run: run)
    }

    /// Runs what loading a file gave, or reports why it did not load.
    static func execute(
        _ file: DiscoveredScenario, loaded: Result<Scenario, LoadFailure>, run: (Scenario) async -> ScenarioResult
    ) async -> Executed {
        switch loaded {
        case .success(let scenario):
            return Executed(result: await run(scenario))
        case .failure(let failure):
            return Executed(result: ScenarioResult(unloadable: file, failure), loadFailure: failure)
        }
    }

    #if os(macOS) || os(Linux) || os(Windows)
        /// Runs work in a worker process, which reads the file itself.
        private static func execute(_ work: Work, in pool: WorkerPool, plan: RunPlan, loader: ScenarioLoader) async -> Executed {
            let file: DiscoveredScenario
            switch work {
            case .scenario(let scenario): file = DiscoveredScenario(path: scenario.file, id: scenario.id)
            case .file(let unread): file = unread
            }
            switch await pool.run(file, plan: plan) {
            case .finished(let executed):
                return executed
            case .died(let reason):
                // Name the scenario as a report would: read it here, where nothing has crashed.
                var result = ScenarioResult(id: file.id, name: file.id, file: file.path, status: .error, errorMessage: reason)
                result.errorSubject = FailureSubject(.error, "worker died")
                if case .success(let scenario) = loader.load(contentsOf: file.path, id: file.id) {
                    result.name = scenario.name
                    result.tags = scenario.tags
                    result.errorLocation = scenario.location
                }
                return Executed(result: result)
            }
        }
    #endif

    /// Runs one scenario as the configuration's plan says.
    static func execute(_ scenario: Scenario, driver: any ScenarioDriver, configuration: Configuration) async -> ScenarioResult {
        var runner = ScenarioRunner(driver: driver, plan: configuration.plan)
        runner.followUp = configuration.followUp
        return await runner.run(scenario)
    }

    static func skippedResult(_ scenario: Scenario, reason: String) -> ScenarioResult {
        ScenarioResult(
            id: scenario.id, name: scenario.name, file: scenario.file, tags: scenario.tags, status: .skipped,
            errorMessage: reason
        )
    }
}
