import Foundation
import ScenarioEngine
import ScenarioShrinking

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// `scenario shrink`: the smallest scenario that fails the same way as a failing one.
struct ShrinkCommand: Command {
    static let name = "shrink"
    static let abstract = "Shrink a failing scenario to the smallest one that fails the same way"
    static let arguments = "FILE.json -o MIN.json [options]"
    static let discussion = """
        The input is run three times first: a failure that does not repeat is refused. Steps,
        exchanges, copies, time, matcher and answer members and the expectations that are no
        part of the failure are cut, cheapest first, every candidate checked by the loader; a
        candidate counts when it fails the same way: by the invariants the input broke, else by
        the failure its report leads with (--same names another part, or all). The result is
        run three more times where it is written, then written, and the figures printed; on the
        time limit or Ctrl-C, the best found so far is checked and written. Under --replay-schedule every candidate
        runs under that schedule, which is cut too, and printed as the schedule that replays
        the result. Exit 0 when written, 1 when the input passes, 2 when it cannot be shrunk.
        Documentation/shrinking.md says more.
        """
    static let options: [OptionSpec] = [
        .value("--output", short: "-o", "MIN.json", "Where to write the shrunk scenario (required)"),
        .value("--same", "PART", "The part of the failure to keep: invariant:ID, state.auth, unmatched:GET /feed, ..., or all"),
        .value("--replay-schedule", "SCHEDULE", "The schedule the input fails under, as a failure or a shrink printed it"),
        .value("--route", "ROUTE", "How requests reach the backend: direct (default) or urlSession"),
        .value("--time-limit", "DURATION", "How long to search, such as 30s or 5m (default: 2m)"),
        .value("--jobs", short: "-j", "N", "Candidates run at once, each in a worker process (default: active processor count)"),
    ]

    var input: String
    var output: String
    var settings = ShrinkSettings()
    var route: RunPlan.Route
    var jobs: Int

    init(_ arguments: ParsedArguments) throws(CLIError) {
        guard let input = arguments.positionals.first else { throw .missingArgument("a failing scenario file", command: Self.name) }
        if arguments.positionals.count > 1 { throw .unexpectedArgument(arguments.positionals[1], command: Self.name) }
        guard let output = arguments.value("--output") else { throw .missingArgument("-o MIN.json", command: Self.name) }
        self.input = input
        self.output = output
        route = try RunFlags.route(arguments, command: Self.name)
        jobs = try RunFlags.count(arguments, "--jobs", command: Self.name) ?? ProcessInfo.processInfo.activeProcessorCount
        settings.schedule = try RunFlags.schedule(arguments, command: Self.name)
        settings.same = arguments.value("--same")
        if let text = arguments.value("--time-limit") {
            do {
                settings.timeLimit = try DurationText.parse(text)
            } catch {
                throw .invalidValue(option: "--time-limit", value: text, command: Self.name, reason: error.description)
            }
        }
    }

    func execute(in context: CLIContext) async throws(CLIError) -> ExitCode {
        ScenarioProcess.claimWholeProcess()
        let file: DiscoveredScenario
        do {
            let found = try ScenarioDiscovery.find([input])
            guard found.count == 1, let only = found.first, only.path == input else {
                throw CLIError.badPath("'\(Self.qualifiedName)' takes one scenario file; \(input) holds \(found.count)")
            }
            file = only
        } catch let error as CLIError {
            throw error
        } catch {
            throw .badPath(String(describing: error))
        }
        let outcome = await Self.shrink(file, to: output, settings: settings, route: route, jobs: jobs, in: context)
        switch outcome {
        case .written(let report):
            context.console.out(Self.describe(report))
            return .success
        case .passes(let message):
            context.console.err(message + "; nothing written\n")
            return .failure
        case .unloadable(let failure):
            context.console.out(failure.description + "\n")
            return .fileProblem
        case .refused(let message):
            throw .cannotShrink(message)
        }
    }

    /// Shrinks `file` into `output` with the context's driver: candidates in worker processes
    /// when `jobs` is more than 1, a progress line on a terminal, and Ctrl-C ending the search.
    static func shrink(
        _ file: DiscoveredScenario, to output: String, settings: ShrinkSettings, route: RunPlan.Route, jobs: Int, in context: CLIContext
    ) async -> ShrinkOutcome {
        var settings = settings
        settings.stop = { _ in ShrinkInterrupt.requested }
        let line = ProgressLine(console: context.console, enabled: context.stdoutIsTerminal)
        settings.progress = line.show
        let workers = context.executablePath.map {
            WorkerLaunch(executable: URL(fileURLWithPath: $0), arguments: [RunCommand.workerName, "--route", route.rawValue])
        }
        let shrinker = ScenarioShrinker(
            driver: context.driver, plan: RunPlan(route: route), jobs: jobs, workers: workers, settings: settings)
        ShrinkInterrupt.install()
        let outcome = await shrinker.shrink(file, to: output)
        line.clear()
        return outcome
    }

    /// What the shrink did, as printed.
    static func describe(_ report: ShrinkReport) -> String {
        var text = "\(report.input): \(report.summary)\n"
        if report.stoppedEarly { text += "Stopped before the passes were done (time limit or Ctrl-C): this is the best found so far.\n" }
        if let schedule = report.schedule {
            text += "It fails under the schedule \(schedule): replay it with --replay-schedule \(schedule)\n"
        }
        if !report.otherFailures.isEmpty {
            text += "Other failures met on the way, not followed:\n"
            for other in report.otherFailures {
                text += "  \(other.count) × \(other.part.isEmpty ? "a failure" : other.part)\n    \(other.example)\n"
            }
        }
        return text + "Wrote \(report.output)\n"
    }
}

/// The progress line: on a terminal only, rewritten in place, at most ten times a second.
private final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let enabled: Bool
    private let lock = NSLock()
    private var last: ContinuousClock.Instant?
    private var shown = false

    init(console: Console, enabled: Bool) {
        self.console = console
        self.enabled = enabled
    }

    @Sendable func show(_ progress: ShrinkProgress) {
        guard enabled else { return }
        let now = ContinuousClock.now
        lock.withLock {
            if let last, now - last < .milliseconds(100) { return }
            last = now
            shown = true
            let left = max(0, progress.timeLeft.components.seconds)
            console.out("\r\u{1B}[Kshrinking: \(progress.runs) runs, best \(progress.best), \(left / 60)m \(left % 60)s left")
        }
    }

    func clear() {
        lock.withLock { if shown { console.out("\r\u{1B}[K") } }
    }
}

/// Ctrl-C during a shrink: the first stops the search, which then writes the best found so
/// far; a second ends the process as usual.
private enum ShrinkInterrupt {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    static var requested: Bool { flag != 0 }

    static func install() {
        #if canImport(Glibc) || canImport(Darwin)
            signal(SIGINT) { _ in
                ShrinkInterrupt.flag = 1
                signal(SIGINT, SIG_DFL)
            }
        #endif
    }
}
