import FieldSessionDriver
import Foundation
import ScenarioKit

/// The shrink figures: the repository's long field session (Examples/FieldSession, 135 steps and
/// 15 exchanges) shrunk in this process and in worker processes (this program, started again
/// as one), and how many times a second one core runs it unshrunk.
enum ShrinkFigures {
    /// The argument this program is started with as a worker of the shrink.
    static let workerArgument = "__shrink-worker"
    static let session = DiscoveredScenario(path: "Examples/FieldSession/Scenarios/field-session.json", id: "field-session")

    /// The body of a worker process: candidates of the field session on standard input.
    static func serveWorker() async {
        await WorkerPool.serve(driver: FieldSessionDriver())
    }

    static func print(quick: Bool) async {
        let driver = FieldSessionDriver()
        guard
            case .success(let scenario) = ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(
                contentsOf: session.path, id: session.id)
        else {
            Swift.print("(no \(session.path) that loads: run the bench from the package root)")
            return
        }
        var runs = Table(title: "The field session unshrunk, one run after another in one process (one core)")
        runs.add("scenario", "steps", "exchanges", "runs", "wall", "runs / s", "ms / run")
        let runner = ScenarioRunner(driver: driver)
        _ = await runner.run(scenario)
        let count = quick ? 20 : 100
        let wall = await ContinuousClock().measure { for _ in 0..<count { _ = await runner.run(scenario) } }
        runs.add(
            session.id, "\(scenario.steps.count)", "\(scenario.exchanges.count)", "\(count)", "\(format(wall.seconds, 2)) s",
            format(Double(count) / wall.seconds, 1), format(wall.seconds * 1000 / Double(count), 1))
        runs.print()

        var shrinks = Table(title: "Shrinking the field session and the draft `scenario import` makes of its HAR (default settings)")
        shrinks.add("input", "candidates", "from", "result", "runs", "wall", "runs / s")
        let executable = Bundle.main.executablePath.map { URL(fileURLWithPath: $0) }
        let folder = NSTemporaryDirectory() + "scenario-bench-shrink-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var inputs = [("the session", session)]
        if let draft = importedDraft(in: folder) { inputs.append(("its imported HAR", draft)) }
        for (name, input) in inputs {
            for jobs in Set([1, max(2, cores)]).sorted() {
                let output = folder + "/shrunk-\(UUID().uuidString).json"
                let workers = executable.map { WorkerLaunch(executable: $0, arguments: [workerArgument]) }
                let shrinker = ScenarioShrinker(
                    driver: driver, plan: RunPlan(), jobs: jobs, workers: workers, settings: ShrinkSettings())
                let place = jobs == 1 ? "in this process" : "\(jobs) worker processes"
                switch await shrinker.shrink(input, to: output) {
                case .written(let report):
                    shrinks.add(
                        name, place, "\(report.from)", "\(report.to)", "\(report.runs)", "\(format(report.wallTime.seconds, 2)) s",
                        format(Double(report.runs) / report.wallTime.seconds, 1))
                case let other:
                    shrinks.add(name, place, "", "not written: \(other)", "", "", "")
                }
            }
        }
        shrinks.print()
        await HeldSessionFigures.print(quick: quick)
    }

    /// The draft `scenario import` makes of the session's HAR export, beside a copy of the
    /// session's invariant file (which then governs it as it governs the session).
    private static func importedDraft(in folder: String) -> DiscoveredScenario? {
        let driver = FieldSessionDriver()
        let base = (session.path as NSString).deletingLastPathComponent
        guard let bytes = try? FileBytes.read("Examples/FieldSession/Traces/field-session.har"),
            let trace = try? HARReader(file: "field-session.har").read(bytes: bytes),
            (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
            (try? FileManager.default.copyItem(atPath: base + "/invariants.json", toPath: folder + "/invariants.json")) != nil
        else { return nil }
        // As `scenario import` reads a trace this package exported: every gap is meant.
        var options = TraceImporter.Options()
        options.minimumGap = .milliseconds(1)
        let draft = DiscoveredScenario(path: folder + "/imported.json", id: "imported")
        guard
            let (text, _) = try? TraceImporter(spec: driver.traceImport, options: options).importScenario(
                from: TraceRedactor().redact(trace).log, file: "field-session.har", actions: driver.actions, givenKeys: driver.givenKeys),
            FileManager.default.createFile(atPath: draft.path, contents: Data(text.utf8))
        else { return nil }
        return draft
    }
}
