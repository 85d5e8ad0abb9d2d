import Foundation
import ScenarioEngine
import ScenarioShrinking

/// `scenario run`: runs scenarios, prints progress and failures, writes the JUnit and JSON reports.
struct RunCommand: Command {
    static let name = "run"
    static let abstract = "Run scenarios and write JUnit and JSON reports"
    static let arguments = "[paths...] [options]"
    static let discussion = """
        Paths are scenario files or folders searched recursively (default: Scenarios).
        Scenarios left out by --filter, --tag or --skip-tag are reported as skipped; scenarios of
        other shards are left out of this run's reports, so merged shard reports list each once.
        A file that does not load is reported as an error in every selection (exit status 2).
        """
    static let defaultPath = "Scenarios"
    static let defaultJUnitPath = "Reports/junit.xml"
    static let defaultJSONPath = "Reports/results.json"

    static let options: [OptionSpec] = [
        .value("--filter", "REGEX", "Run only scenarios whose id or name matches the regular expression"),
        .value("--tag", "TAG", repeatable: true, "Run only scenarios with any of these tags"),
        .value("--skip-tag", "TAG", repeatable: true, "Skip scenarios with any of these tags"),
        .value("--jobs", short: "-j", "N", "Scenarios run in parallel (default: active processor count)"),
        .value("--shard", "I/N", "Run only shard I of N (1-based, stable split by scenario id)"),
        .value("--repeat", "N", "Run each scenario N times; a run that differs from the first fails (JSON key order aside)"),
        .flag("--fail-fast", "Start no scenario after the first failure; the rest are reported skipped"),
        .value("--junit", "PATH", "Where to write the JUnit report (default: \(defaultJUnitPath))"),
        .value("--json", "PATH", "Where to write the JSON report (default: \(defaultJSONPath))"),
        .value("--html", "PATH", "Also write one self-contained HTML page: summary, sequence diagrams, checks"),
        .flag("--no-reports", "Write no report files"),
        .flag("--quiet", short: "-q", "Print only failures and the summary"),
        .flag("--verbose", short: "-v", "Also print skipped scenarios and every step"),
        .value("--route", "ROUTE", "How requests reach the backend: direct (default) or urlSession"),
        .flag("--show-secrets", "Show secrets in transcripts, diffs and reports instead of masking them"),
        .value("--schedules", "N", "Run each scenario under N orders of its jobs (first in first out, then PCT schedules)"),
        .value("--seed", "S", "The seed --schedules draws its schedules from (default: 1)"),
        .value("--replay-schedule", "SEED:INDEX", "Run each scenario under exactly the schedule a failure printed"),
        .flag("--allow-empty", "Exit 0 when no scenario file is found or the selection runs none"),
        .value("--shrink", "DIR", "Write a shrunk copy of every failing scenario into DIR, named after its id, and list them"),
        .flag(
            "--invariants-only",
            "Check invariants only: leave out every expect, step expectation and unmatched/unused check (mutation scoring); a scenario no invariant governs is skipped"
        ),
    ]

    /// The hidden command `run --jobs N` starts its worker processes with.
    static let workerName = "__worker"

    /// The files and folders to run.
    var paths: [String]
    /// Which scenarios run.
    var selection: ScenarioSelection
    /// Parallel workers.
    var jobs: Int
    /// How each scenario runs.
    var plan: RunPlan
    /// Whether to stop after the first failure.
    var failFast: Bool
    /// Where to write the JUnit report (`nil`: not at all).
    var junitPath: String?
    /// Where to write the JSON report (`nil`: not at all).
    var jsonPath: String?
    /// Where to write the HTML page (`nil`: not at all, the default).
    var htmlPath: String?
    /// How much to print.
    var verbosity: ConsoleReport.Verbosity
    /// Whether running nothing is fine.
    var allowEmpty = false

    init(_ arguments: ParsedArguments) throws(CLIError) {
        paths = arguments.scenarioPaths
        jobs = try Self.count(arguments, "--jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        failFast = arguments.has("--fail-fast")

        var shard: ScenarioSelection.Shard?
        if let text = arguments.value("--shard") {
            guard let parsed = ScenarioSelection.Shard(parsing: text) else {
                throw .invalidValue(
                    option: "--shard", value: text, command: Self.name,
                    reason: "expected I/N with 1 <= I <= N, such as 2/3")
            }
            shard = parsed
        }
        do {
            selection = try ScenarioSelection(
                filter: arguments.value("--filter"), tags: arguments.all("--tag"),
                skipTags: arguments.all("--skip-tag"), shard: shard
            )
        } catch {
            throw .invalidValue(option: "--filter", value: error.pattern, command: Self.name, reason: error.reason)
        }

        if arguments.has("--no-reports") {
            for option in ["--junit", "--json", "--html"] where arguments.contains(option) {
                throw .conflictingOptions("--no-reports", option, command: Self.name)
            }
            junitPath = nil
            jsonPath = nil
        } else {
            junitPath = arguments.value("--junit") ?? Self.defaultJUnitPath
            jsonPath = arguments.value("--json") ?? Self.defaultJSONPath
            htmlPath = arguments.value("--html")
        }

        if arguments.has("--quiet"), arguments.has("--verbose") {
            throw .conflictingOptions("--quiet", "--verbose", command: Self.name)
        }
        verbosity = arguments.has("--quiet") ? .quiet : arguments.has("--verbose") ? .verbose : .normal

        let route = try RunFlags.route(arguments, command: Self.name)
        allowEmpty = arguments.has("--allow-empty")

        // How often and in which orders: checked where a test bundle's settings are too.
        func given(_ option: String) -> RunPlan.Settings.Given? { arguments.value(option).map { .init($0, name: option) } }
        let settings = RunPlan.Settings(
            repeatCount: given("--repeat"), schedules: given("--schedules"), seed: given("--seed"), replay: given("--replay-schedule"),
            schedulesName: "--schedules")
        switch settings.mode() {
        case .success(let mode):
            plan = RunPlan(
                route: route, revealSecrets: arguments.has("--show-secrets"), invariantsOnly: arguments.has("--invariants-only"), mode: mode
            )
            plan.shrinkInto = arguments.value("--shrink")
        case .failure(.conflict(let first, let second)):
            throw .conflictingOptions(first, second, command: Self.name)
        case .failure(.invalid(let option, let value, let reason)):
            throw .invalidValue(option: option, value: value, command: Self.name, reason: reason)
        case .failure(.seedWithoutSchedules(let option, let schedules)):
            throw .invalidValue(
                option: option, value: arguments.value(option) ?? "", command: Self.name, reason: "\(option) goes with \(schedules)")
        }
    }

    /// The suite configuration; `workers` run scenarios when `jobs` is more than 1.
    func configuration(workers: WorkerLaunch?) -> SuiteRunner.Configuration {
        SuiteRunner.Configuration(selection: selection, jobs: jobs, failFast: failFast, plan: plan, workers: workers)
    }

    private static func count(_ arguments: ParsedArguments, _ option: String) throws(CLIError) -> Int? {
        try RunFlags.count(arguments, option, command: name)
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        // Scenarios own the process while they run; in parallel, each runs in a worker process.
        ScenarioProcess.claimWholeProcess()
        let workers = context.executablePath.map {
            WorkerLaunch(executable: URL(fileURLWithPath: $0), arguments: [Self.workerName])
        }
        var configuration = configuration(workers: workers)
        configuration.followUp = ShrinkOnFailure()
        let suite = SuiteRunner(driver: context.driver, configuration: configuration)
        let console = context.console
        let report = ConsoleReport(colors: context.usesColors, verbosity: verbosity)

        let files: [DiscoveredScenario]
        do { files = try suite.discover(paths) } catch { throw .badPath(String(describing: error)) }
        if files.isEmpty, !allowEmpty {
            throw .nothingSelected("no scenario files found in \(paths.joined(separator: ", "))")
        }
        if verbosity >= .verbose {
            var header = "Running \(files.count) scenario file\(files.count == 1 ? "" : "s") with \(jobs) worker\(jobs == 1 ? "" : "s")"
            if let shard = selection.shard { header += ", shard \(shard)" }
            if case .repeated(let times) = plan.mode { header += ", \(times) runs each" }
            console.out(header + "\n")
        }

        // Every report takes each result as it comes: the run keeps only failures, for the console.
        let streams: [any StreamedReport] = [
            junitPath.map(JUnitReport.Stream.init), jsonPath.map(JSONReport.Stream.init), htmlPath.map(HTMLReport.Stream.init),
        ]
        .compactMap { $0 }
        let outcome = await suite.run(files: files, keeping: .problems) { result, slot in
            if let line = report.progressLine(result) { console.out(line) }
            for stream in streams { stream.add(result, at: slot) }
        }

        let failures = report.failureSection(outcome.run)
        if !failures.isEmpty { console.out("\n" + failures) }
        if plan.shrinkInto != nil { console.out(report.shrinkSection(outcome.run)) }
        if context.isGitHubActions {
            for line in GitHubAnnotations.lines(for: outcome.run) { console.out(line + "\n") }
        }

        var written: [String] = []
        var writeError: CLIError?
        for stream in streams {
            do {
                try stream.finish(outcome.tally)
                written.append(stream.path)
            } catch {
                writeError = writeError ?? .cannotWrite(path: stream.path, reason: (error as? ReportWriteError)?.reason ?? "\(error)")
            }
        }

        console.out("\n")
        if outcome.otherShards > 0, let shard = selection.shard {
            console.out("Shard \(shard): \(outcome.otherShards) scenario\(outcome.otherShards == 1 ? "" : "s") left to other shards\n")
        }
        if verbosity >= .normal, !written.isEmpty {
            console.out("Reports: \(written.joined(separator: ", "))\n")
        }
        console.out(report.summary(outcome.tally))
        if let writeError { throw writeError }
        if !allowEmpty, !files.isEmpty, outcome.tally.skipped == outcome.tally.total {
            if plan.invariantsOnly {
                throw .nothingSelected(
                    "no invariant governs any of the \(files.count) scenario files found; --invariants-only checked nothing")
            }
            throw .nothingSelected("the selection ran none of the \(files.count) scenario files found")
        }
        return ExitCode.of(outcome)
    }
}
