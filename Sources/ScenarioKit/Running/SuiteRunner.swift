import Foundation

/// Runs a suite: discovers scenario files, loads them, selects (filter, tags, shard), runs the
/// selected ones on parallel workers, and returns the result tree in input order.
///
/// Files that do not load become `.error` results (and are counted in ``Outcome/loadFailures``);
/// scenarios left out by the filter or tags become `.skipped` ones; scenarios of other shards
/// are left out. The CLI and tests share this type.
public struct SuiteRunner: Sendable {
    /// How the suite runs.
    public struct Configuration: Sendable {
        /// Which scenarios run.
        public var selection: ScenarioSelection
        /// How many scenarios run at once (at least 1).
        public var jobs: Int
        /// How many times each scenario runs; a run that differs from the first fails it.
        public var repeatCount: Int
        /// Stop starting scenarios after the first failure or error; the rest are skipped.
        public var failFast: Bool
        /// How each scenario is wired to the stack.
        public var options: RunOptions
        /// Schedule exploration: run each scenario under this many orders of its jobs.
        public var exploration: Exploration?
        /// Worker processes to run scenarios in when `jobs` is more than 1; without them scenarios
        /// take turns in this process (what the capture installs is process-wide).
        public var workers: WorkerLaunch?

        /// Creates a configuration: everything, one worker per active processor, once each.
        public init(
            selection: ScenarioSelection = .all, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
            repeatCount: Int = 1, failFast: Bool = false, options: RunOptions = RunOptions(), exploration: Exploration? = nil,
            workers: WorkerLaunch? = nil
        ) {
            self.exploration = exploration
            self.workers = workers
            self.selection = selection
            self.jobs = jobs
            self.repeatCount = repeatCount
            self.failFast = failFast
            self.options = options
        }
    }

    /// One discovered scenario file and what loading it gave.
    public struct Entry: Sendable {
        /// The file's path.
        public var path: String
        /// The scenario's id.
        public var id: String
        /// The scenario, or every problem found in the file.
        public var loaded: Result<Scenario, LoadFailure>

        /// Creates an entry.
        public init(path: String, id: String, loaded: Result<Scenario, LoadFailure>) {
            self.path = path
            self.id = id
            self.loaded = loaded
        }
    }

    /// What a suite run gives.
    public struct Outcome: Sendable {
        /// The result tree, in input order.
        public var run: RunResult
        /// The files that could not be loaded (also present in `run` as `.error` results).
        public var loadFailures: [LoadFailure]
        /// How many scenarios belong to other shards and were left out.
        public var otherShards: Int

        /// Creates an outcome.
        public init(run: RunResult, loadFailures: [LoadFailure], otherShards: Int) {
            self.run = run
            self.loadFailures = loadFailures
            self.otherShards = otherShards
        }
    }

    /// Why a scenario left for later by `--fail-fast` did not run.
    public static let failFastReason = "not run: --fail-fast stopped the run after a failure"

    private let driver: any ScenarioDriver
    private let configuration: Configuration

    /// Creates a suite runner for a driver.
    public init(driver: any ScenarioDriver, configuration: Configuration = Configuration()) {
        self.driver = driver
        self.configuration = configuration
    }

    /// Finds and loads every scenario under the paths (files or folders, recursively), in order.
    /// - Throws: what ``ScenarioDiscovery`` throws for a path that does not exist.
    public func load(_ paths: [String]) throws -> [Entry] {
        let loader = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys)
        return try ScenarioDiscovery.find(paths).map { found in
            Entry(path: found.path, id: found.id, loaded: loader.load(contentsOf: found.path, id: found.id))
        }
    }

    /// Loads and runs every scenario under the paths.
    /// - Parameter progress: called once per reported scenario as soon as its result is known.
    /// - Throws: what ``ScenarioDiscovery`` throws for a path that does not exist.
    public func run(_ paths: [String], progress: @escaping @Sendable (ScenarioResult) -> Void = { _ in }) async throws -> Outcome {
        await run(entries: try load(paths), progress: progress)
    }

    /// Selects and runs loaded entries.
    /// - Parameter progress: called once per reported scenario as soon as its result is known
    ///   (skipped and unloadable ones first, the others as they finish).
    public func run(entries: [Entry], progress: @escaping @Sendable (ScenarioResult) -> Void = { _ in }) async -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        var slots: [ScenarioResult?] = []
        var pending: [(slot: Int, scenario: Scenario)] = []
        var loadFailures: [LoadFailure] = []
        var otherShards = 0

        for entry in entries {
            switch entry.loaded {
            case .failure(let failure):
                guard configuration.selection.decideUnloaded(id: entry.id) != .otherShard else {
                    otherShards += 1
                    continue
                }
                loadFailures.append(failure)
                let result = Self.loadErrorResult(entry, failure)
                slots.append(result)
                progress(result)
            case .success(let scenario):
                switch configuration.selection.decide(id: scenario.id, name: scenario.name, tags: scenario.tags) {
                case .otherShard:
                    otherShards += 1
                case .skip(let reason):
                    let result = Self.skippedResult(scenario, reason: reason)
                    slots.append(result)
                    progress(result)
                case .run:
                    pending.append((slots.count, scenario))
                    slots.append(nil)
                }
            }
        }

        let jobs = max(1, configuration.jobs)
        let driver = self.driver
        let configuration = self.configuration
        #if os(macOS) || os(Linux) || os(Windows)
            let pool = jobs > 1 ? configuration.workers.map(WorkerPool.init) : nil
        #endif
        @Sendable func execute(_ scenario: Scenario) async -> ScenarioResult {
            #if os(macOS) || os(Linux) || os(Windows)
                if let pool { return await pool.run(scenario) }
            #endif
            return await Self.execute(scenario, driver: driver, configuration: configuration)
        }
        let failFast = configuration.failFast
        await withTaskGroup(of: (Int, ScenarioResult).self) { group in
            var queue = pending.makeIterator()
            var stopped = false
            for _ in 0..<jobs {
                guard let next = queue.next() else { break }
                group.addTask { (next.slot, await execute(next.scenario)) }
            }
            while let (slot, result) = await group.next() {
                slots[slot] = result
                progress(result)
                if failFast, result.status == .failed || result.status == .error { stopped = true }
                if !stopped, let next = queue.next() {
                    group.addTask { (next.slot, await execute(next.scenario)) }
                }
            }
            while let next = queue.next() {
                let result = Self.skippedResult(next.scenario, reason: Self.failFastReason)
                slots[next.slot] = result
                progress(result)
            }
        }

        let run = RunResult(scenarios: slots.compactMap { $0 }, wallTime: clock.now - start)
        return Outcome(run: run, loadFailures: loadFailures, otherShards: otherShards)
    }

    /// Runs one scenario as the configuration says: repeated, explored, or once.
    static func execute(_ scenario: Scenario, driver: any ScenarioDriver, configuration: Configuration) async -> ScenarioResult {
        let runner = ScenarioRunner(driver: driver, options: configuration.options)
        guard let exploration = configuration.exploration else {
            return await execute(scenario, runner: runner, times: max(1, configuration.repeatCount))
        }
        return await Explorer(driver: driver, options: configuration.options, exploration: exploration).run(scenario)
    }

    /// Runs a scenario `times` times; any run whose status or transcript differs from the first
    /// turns the result into a failure that says which run differed and where.
    static func execute(_ scenario: Scenario, runner: ScenarioRunner, times: Int) async -> ScenarioResult {
        var first = await runner.run(scenario)
        guard times > 1 else { return first }
        var wallTime = first.wallTime
        for run in 2...times {
            let again = await runner.run(scenario)
            wallTime += again.wallTime
            if let difference = nondeterminism(first, again, run: run, location: scenario.location) {
                first.status = .failed
                first.steps.append(
                    StepResult(
                        index: (first.steps.last?.index ?? 0) + 1, label: "repeat ×\(times)",
                        location: scenario.location, assertions: [difference]
                    ))
                break
            }
        }
        first.wallTime = wallTime
        return first
    }

    /// The failed assertion describing how `other` (run number `run`) differs from `first`,
    /// or `nil` when status and transcript are the same.
    static func nondeterminism(_ first: ScenarioResult, _ other: ScenarioResult, run: Int, location: ScenarioLocation?) -> AssertionResult?
    {
        let statusDiffers = first.status != other.status
        let shared = min(first.transcript.count, other.transcript.count)
        let line =
            (0..<shared).first { first.transcript[$0] != other.transcript[$0] }
            ?? (first.transcript.count == other.transcript.count ? nil : shared)
        guard statusDiffers || line != nil else { return nil }
        var message = "nondeterministic: run \(run) differed from run 1"
        var details: [String] = []
        if statusDiffers { details.append("status \(first.status.rawValue) in run 1, \(other.status.rawValue) in run \(run)") }
        var expected: String?
        var actual: String?
        if let line {
            details.append("first differing transcript line is \(line + 1)")
            let end = "(end of transcript)"
            expected = line < first.transcript.count ? first.transcript[line] : end
            actual = line < other.transcript.count ? other.transcript[line] : end
        }
        message += ": " + details.joined(separator: "; ")
        return AssertionResult(
            label: "repeat", passed: false, message: message, expected: expected, actual: actual, location: location
        )
    }

    static func loadErrorResult(_ entry: Entry, _ failure: LoadFailure) -> ScenarioResult {
        ScenarioResult(
            id: entry.id, name: entry.id, file: entry.path, status: .error,
            errorMessage: failure.issues.isEmpty ? "could not load \(entry.path)" : failure.description,
            errorLocation: failure.issues.first?.location
        )
    }

    static func skippedResult(_ scenario: Scenario, reason: String) -> ScenarioResult {
        ScenarioResult(
            id: scenario.id, name: scenario.name, file: scenario.file, tags: scenario.tags, status: .skipped,
            errorMessage: reason
        )
    }
}
