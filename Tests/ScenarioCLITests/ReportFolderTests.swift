import Foundation
import Testing

@testable import ScenarioEngine
@testable import ScenarioTraces

/// A report folder that test cases record into one by one, in parallel, from several processes:
/// its JUnit, JSON and HTML files hold one case per scenario, in id order, and what ended
/// processes left behind belongs to an earlier run.
@Suite("Report folder")
struct ReportFolderTests {
    /// A passing result with this id.
    private static func result(_ id: String, _ status: ScenarioResult.Status = .passed) -> ScenarioResult {
        var result = status == .failed ? Fixtures.failed : Fixtures.passed
        result.id = id
        result.name = id
        result.file = "Scenarios/\(id).json"
        return result
    }

    @Test func casesRecordedInParallelGiveOneTestcaseEachInIdOrder() async throws {
        let folder = try TemporaryFolder()
        let reports = ReportFolder(path: folder.path("Reports"))
        let ids = (0..<24).map { "group\($0 % 3)/case-\(String(format: "%02d", $0))" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids.shuffled() {
                group.addTask { try reports.record(Self.result(id, id.hasSuffix("07") ? .failed : .passed)) }
            }
            try await group.waitForAll()
        }

        let junit = try folder.read("Reports/\(ReportFolder.junitName)")
        let summary = try JUnitStructure.check(junit)
        #expect(summary.tests == 24)
        #expect(summary.failures == 1)
        #expect(summary.cases == ids.sorted().map { JUnitReport.classname(forID: $0) + "/" + $0 })
        try JUnitStructure.validateIfPossible(junit)

        let json = try JSONSerialization.jsonObject(with: Data(try folder.read("Reports/\(ReportFolder.jsonName)").utf8))
        let scenarios = try #require((json as? [String: Any])?["scenarios"] as? [[String: Any]])
        #expect(scenarios.compactMap { $0["id"] as? String } == ids.sorted())
        let html = try folder.read("Reports/\(ReportFolder.htmlName)")
        #expect(ids.allSatisfy { html.contains($0) })
    }

    /// A large folder is rewritten now and then, not on every record; what the reports still
    /// lack is written by `flush()` and by the rewrite at exit, which writes every folder.
    @Test func aLargeRunsReportsAreWholeOnceFlushed() throws {
        let folder = try TemporaryFolder()
        let (first, second) = (ReportFolder(path: folder.path("First")), ReportFolder(path: folder.path("Second")))
        for index in 0..<157 {
            try first.record(Self.result(String(format: "case-%03d", index)))
            try second.record(Self.result(String(format: "case-%03d", index)))
        }
        // The last rewrite came with the 154th record (the next is due 154 / 16 = 9 records later).
        #expect(try JUnitStructure.check(try folder.read("First/junit.xml")).tests == 154)
        try first.flush()
        #expect(try JUnitStructure.check(try folder.read("First/junit.xml")).tests == 157)
        ReportFolder.flushAll()
        #expect(try JUnitStructure.check(try folder.read("Second/junit.xml")).tests == 157)
        let json = try JSONSerialization.jsonObject(with: Data(try folder.read("Second/\(ReportFolder.jsonName)").utf8))
        #expect(((json as? [String: Any])?["scenarios"] as? [[String: Any]])?.count == 157)
    }

    /// The reports are written one result at a time, and are what rendering the whole run gives:
    /// the folder's results in id and label order, named after their labels, the run's wall time
    /// the sum of theirs.
    @Test func theReportsAreTheRenderedRunOfTheFoldersResults() throws {
        let folder = try TemporaryFolder()
        let reports = ReportFolder(path: folder.path("Reports"))
        for (index, id) in ["b/second", "a/first", "c/third"].enumerated() {
            var result = Self.result(id, index == 1 ? .failed : .passed)
            result.wallTime = .milliseconds(10 * (index + 1))
            try reports.record(result, label: "direct")
            try reports.record(result, label: "urlSession")
        }
        try reports.flush()
        let results = reports.results()
        #expect(
            results.map(\.name) == [
                "a/first (direct)", "a/first (urlSession)", "b/second (direct)", "b/second (urlSession)", "c/third (direct)",
                "c/third (urlSession)",
            ])
        let run = RunResult(scenarios: results, wallTime: .milliseconds(120))
        #expect(try folder.read("Reports/\(ReportFolder.junitName)") == JUnitReport.render(run))
        #expect(try folder.read("Reports/\(ReportFolder.jsonName)") == JSONReport.render(run))
        #expect(try folder.read("Reports/\(ReportFolder.htmlName)") == HTMLReport.render(run))
    }

    @Test func recordingAScenarioAgainReplacesItsCase() throws {
        let folder = try TemporaryFolder()
        let reports = ReportFolder(path: folder.path("Reports"))
        try reports.record(Self.result("flaky", .failed))
        try reports.record(Self.result("flaky", .passed))
        #expect(reports.results().map(\.status) == [.passed])
        let summary = try JUnitStructure.check(try folder.read("Reports/junit.xml"))
        #expect(summary.tests == 1 && summary.failures == 0)
    }

    @Test func casesOfTwoTestsCarryTheirTestsNamesOnlyWhenThereAreTwo() throws {
        let folder = try TemporaryFolder()
        let reports = ReportFolder(path: folder.path("Reports"))
        try reports.record(Self.result("login"), label: "direct")
        #expect(reports.results().map(\.name) == ["login"])
        try reports.record(Self.result("login"), label: "urlSession")
        #expect(reports.results().map(\.name) == ["login (direct)", "login (urlSession)"])
        let summary = try JUnitStructure.check(try folder.read("Reports/junit.xml"))
        #expect(summary.tests == 2)
    }

    #if os(macOS) || os(Linux)
        @Test func whatAnEndedProcessLeftIsDroppedAndARunningOnesIsKept() throws {
            let folder = try TemporaryFolder()
            let parts = folder.url.appendingPathComponent("Reports/.results")
            try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
            let ended = Process()
            ended.executableURL = URL(fileURLWithPath: "/bin/sh")
            ended.arguments = ["-c", "exit 0"]
            try ended.run()
            ended.waitUntilExit()
            // Written as a process of an earlier run would have: its own pid, now ended; and one by
            // the parent process, which is still running.
            for (name, process) in [("stale", Int(ended.processIdentifier)), ("sibling", Int(getppid()))] {
                let part: [String: Any] = [
                    "process": process,
                    "result": try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.result(name))),
                ]
                try JSONSerialization.data(withJSONObject: part).write(to: parts.appendingPathComponent("\(name).json"))
            }
            try FileManager.default.createDirectory(at: parts.appendingPathComponent("unrelated"), withIntermediateDirectories: true)
            try Data("not json".utf8).write(to: parts.appendingPathComponent("torn.json"))

            let reports = ReportFolder(path: folder.path("Reports"))
            try reports.record(Self.result("fresh"))
            #expect(reports.results().map(\.id) == ["fresh", "sibling"])
        }
    #endif

    @Test func aFolderThatCannotBeMadeIsNamed() throws {
        let folder = try TemporaryFolder()
        let blocker = try folder.write("blocker", "a file where the folder should go")
        let reports = ReportFolder(path: blocker + "/Reports")
        #expect {
            try reports.record(Self.result("login"))
        } throws: { error in
            "\(error)".contains(blocker)
        }
    }
}
