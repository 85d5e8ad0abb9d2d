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
        await WorkerPool.serve(driver: FieldSessionDriver(), configuration: SuiteRunner.Configuration(jobs: 1))
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

        var shrinks = Table(title: "Shrinking the field session (`scenario shrink`, default settings)")
        shrinks.add("candidates", "result", "runs", "wall", "runs / s")
        let executable = Bundle.main.executablePath.map { URL(fileURLWithPath: $0) }
        for jobs in Set([1, max(2, cores)]).sorted() {
            let output = NSTemporaryDirectory() + "scenario-bench-shrink-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: output) }
            let workers = executable.map { WorkerLaunch(executable: $0, arguments: [workerArgument]) }
            let shrinker = ScenarioShrinker(driver: driver, options: RunOptions(), jobs: jobs, workers: workers, settings: ShrinkSettings())
            let place = jobs == 1 ? "in this process" : "\(jobs) worker processes"
            switch await shrinker.shrink(session, to: output) {
            case .written(let report):
                shrinks.add(
                    place, "\(report.to)", "\(report.runs)", "\(format(report.wallTime.seconds, 2)) s",
                    format(Double(report.runs) / report.wallTime.seconds, 1))
            case let other:
                shrinks.add(place, "not written: \(other)", "", "", "")
            }
        }
        shrinks.print()
    }
}
