import Foundation
import Testing

/// `run --jobs N` in worker processes gives what `--jobs 1` gives; `--schedules` and
/// `--replay-schedule` are checked like every other flag.
@Suite("scenario run: workers and schedules")
struct WorkersAndSchedulesTests {
    /// The JSON report without its wall times, which are the only thing allowed to differ.
    private func report(_ folder: TemporaryFolder) throws -> String {
        let text = try folder.read("Reports/results.json")
        return text.split(separator: "\n").filter { !$0.contains("wallTimeSeconds") }.joined(separator: "\n")
    }

    @Test func workerProcessesGiveWhatOneProcessGives() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/a.json", ScenarioText.empty(name: "A"))
        try folder.write("Scenarios/b.json", ScenarioText.failing(name: "B"))
        try folder.write("Scenarios/c.json", ScenarioText.empty(name: "C"))
        let one = try ScenarioBinary.run(["run", "--jobs", "1"], in: folder.url)
        let single = try report(folder)
        let junitSingle = try folder.read("Reports/junit.xml").replacingOccurrences(
            of: #"time="[0-9.]+""#, with: "", options: .regularExpression)
        let three = try ScenarioBinary.run(["run", "--jobs", "3"], in: folder.url)
        #expect(one.status == 1)
        #expect(three.status == one.status)
        #expect(try report(folder) == single)
        let junitParallel = try folder.read("Reports/junit.xml").replacingOccurrences(
            of: #"time="[0-9.]+""#, with: "", options: .regularExpression)
        #expect(junitParallel == junitSingle)
    }

    @Test func aFileThatDoesNotLoadInAWorkerIsReportedAsInOneProcess() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/a.json", ScenarioText.empty(name: "A"))
        try folder.write("Scenarios/broken.json", ScenarioText.broken)
        let one = try ScenarioBinary.run(["run", "--jobs", "1"], in: folder.url)
        let single = try report(folder)
        let two = try ScenarioBinary.run(["run", "--jobs", "2"], in: folder.url)
        #expect(one.status == 2, "\(one.output)")
        #expect(two.status == 2, "\(two.output)")
        #expect(try report(folder) == single)
        #expect(single.contains("tims"))
    }

    @Test func schedulesAreCountedInTheReports() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/a.json", ScenarioText.empty(name: "A"))
        let result = try ScenarioBinary.run(["run", "--schedules", "5", "--seed", "3", "--jobs", "1"], in: folder.url)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("5 schedules"))
        let data = Data(try folder.read("Reports/results.json").utf8)
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let scenarios = try #require(report["scenarios"] as? [[String: Any]])
        #expect(scenarios.first?["schedules"] as? Int == 5)
    }

    @Test(arguments: [
        (["--replay-schedule", "7"], "expected SEED:INDEX"),
        (["--replay-schedule", "7:1", "--seed", "2"], "--seed"),
        (["--seed", "2"], "--seed goes with --schedules"),
        (["--schedules", "0"], "at least 1"),
        (["--schedules", "3", "--repeat", "2"], "--repeat"),
    ])
    func badScheduleFlagsAreUsageErrors(flags: [String], says: String) throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/a.json", ScenarioText.empty(name: "A"))
        let result = try ScenarioBinary.run(["run"] + flags, in: folder.url)
        #expect(result.status == 64, "\(result.output)")
        #expect(result.stderr.contains(says), "\(result.stderr)")
    }
}
