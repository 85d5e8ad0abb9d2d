import Foundation
import ScenarioKit
import TaskBoardDriver

/// The held-answer shrink figures: TaskBoard 2.3.0's long field session (135 steps, 15
/// exchanges, its board's answers held until three calls wait) and the draft `scenario import`
/// makes of its HAR, each placed beside the board's invariants and shrunk with default settings
/// in this process and in worker processes (this program, started again as one).
enum HeldSessionFigures {
    /// The argument this program is started with as a worker of these figures.
    static let workerArgument = "__held-shrink-worker"
    static let traces = "Examples/TaskBoard/Traces"

    /// The body of a worker process: candidates of the held session on standard input.
    static func serveWorker() async {
        await WorkerPool.serve(driver: TaskBoardDriver(build: .buggy))
    }

    static func print(quick: Bool) async {
        let folder = NSTemporaryDirectory() + "scenario-bench-held-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard let inputs = prepare(in: folder) else {
            Swift.print("(no \(traces)/held-session.script.json and .har that load: run the bench from the package root)")
            return
        }
        var shrinks = Table(title: "Shrinking TaskBoard's held-answer session and the draft `scenario import` makes of its HAR")
        shrinks.add("input", "candidates", "from", "result", "runs", "wall", "runs / s")
        let executable = Bundle.main.executablePath.map { URL(fileURLWithPath: $0) }
        let driver = TaskBoardDriver(build: .buggy)
        for (name, input, same) in inputs {
            for jobs in Set([1, max(2, cores)]).sorted() where !(quick && jobs > 1) {
                var settings = ShrinkSettings()
                settings.same = same
                let workers = executable.map { WorkerLaunch(executable: $0, arguments: [workerArgument]) }
                let shrinker = ScenarioShrinker(driver: driver, plan: RunPlan(), jobs: jobs, workers: workers, settings: settings)
                let place = jobs == 1 ? "in this process" : "\(jobs) worker processes"
                switch await shrinker.shrink(input, to: folder + "/Scenarios/field/shrunk-\(UUID().uuidString).json") {
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
    }

    /// The session and the draft of its HAR in `folder/Scenarios/field/`, beside a copy of the
    /// board's invariant file, which governs them as it governs the board's scenarios; each with
    /// the part it keeps (`import --shrink` keeps the invariants).
    private static func prepare(in folder: String) -> [(String, DiscoveredScenario, String?)]? {
        let manager = FileManager.default
        let field = folder + "/Scenarios/field"
        let driver = TaskBoardDriver(build: .buggy)
        guard (try? manager.createDirectory(atPath: field, withIntermediateDirectories: true)) != nil,
            (try? manager.copyItem(atPath: "Examples/TaskBoard/Scenarios/invariants.json", toPath: folder + "/Scenarios/invariants.json"))
                != nil,
            (try? manager.copyItem(atPath: traces + "/held-session.script.json", toPath: field + "/held-session.json")) != nil,
            let bytes = try? FileBytes.read(traces + "/held-session.har"),
            let trace = try? HARReader(file: "held-session.har").read(bytes: bytes),
            let (text, _) = try? TraceImporter(spec: driver.traceImport).importScenario(
                from: TraceRedactor().redact(trace).log, file: "held-session.har", actions: driver.actions, givenKeys: driver.givenKeys),
            manager.createFile(atPath: field + "/held-import.json", contents: Data(text.utf8))
        else { return nil }
        return [
            ("the session", DiscoveredScenario(path: field + "/held-session.json", id: "field/held-session"), nil),
            ("its recorded HAR, imported", DiscoveredScenario(path: field + "/held-import.json", id: "field/held-import"), "invariants"),
        ]
    }
}
