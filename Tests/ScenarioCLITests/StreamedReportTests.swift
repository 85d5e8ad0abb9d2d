import Foundation
import Testing

@testable import ScenarioEngine

/// The JUnit, JSON and HTML reports `scenario run` writes as results arrive are, byte for byte,
/// what rendering the whole run gives, whatever order the results finish in.
@Suite("Streamed reports")
struct StreamedReportTests {
    /// Every status, characters both formats must escape, a name that repeats in one folder
    /// (JUnit adds the id to both), and folders whose scenarios interleave in input order.
    private static let run: RunResult = {
        var again = Fixtures.passed
        again.id = "auth/login-again"
        again.file = "Scenarios/auth/login-again.json"
        again.wallTime = .microseconds(12_500)
        var deeper = Fixtures.skipped
        deeper.id = "auth/deep/er"
        var top = Fixtures.passed
        top.id = "top"
        top.name = "Top"
        top.entries = []
        let scenarios = [
            Fixtures.passed, deeper, Fixtures.failed, again, Fixtures.errored, Fixtures.nasty, top, Fixtures.skipped,
        ]
        return RunResult(scenarios: scenarios, wallTime: .milliseconds(2_345))
    }()

    /// Streams `run` in the order `arrival` gives and returns the three files' text.
    private func stream(_ run: RunResult, arrival: [Int]) throws -> (junit: String, json: String, html: String) {
        let folder = try TemporaryFolder()
        let junit = JUnitReport.Stream(path: folder.path("Reports/junit.xml"))
        let json = JSONReport.Stream(path: folder.path("Reports/results.json"))
        let html = HTMLReport.Stream(path: folder.path("Reports/report.html"))
        for slot in arrival {
            junit.add(run.scenarios[slot], at: slot)
            json.add(run.scenarios[slot], at: slot)
            html.add(run.scenarios[slot], at: slot)
        }
        try junit.finish(run.tally)
        try json.finish(run.tally)
        try html.finish(run.tally)
        return (try folder.read("Reports/junit.xml"), try folder.read("Reports/results.json"), try folder.read("Reports/report.html"))
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func streamedFilesAreTheRenderedOnesInAnyArrivalOrder(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let arrival = Array(Self.run.scenarios.indices).shuffled(using: &generator)
        let streamed = try stream(Self.run, arrival: arrival)
        #expect(streamed.junit == JUnitReport.render(Self.run), "arrival order \(arrival)")
        #expect(streamed.json == JSONReport.render(Self.run), "arrival order \(arrival)")
        #expect(streamed.html == HTMLReport.render(Self.run), "arrival order \(arrival)")
        #expect(streamed.junit.contains("name=\"Login works [auth/login-again]\""))
        // Each row links to its own section, in input order.
        #expect(streamed.html.contains(##"<a href="#s4">auth/login-again</a>"##))
        #expect(streamed.html.contains(#"<section id="s4" class="passed">"#))
    }

    @Test func anEmptyRunStreamsAsItRenders() throws {
        let empty = RunResult(scenarios: [], wallTime: .milliseconds(3))
        let streamed = try stream(empty, arrival: [])
        #expect(streamed.junit == JUnitReport.render(empty))
        #expect(streamed.json == JSONReport.render(empty))
        #expect(streamed.html == HTMLReport.render(empty))
    }

    @Test func aFinishedReportReplacesTheLastOneAndLeavesNoScratchFiles() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("Reports/results.json", "an older report")
        let json = JSONReport.Stream(path: folder.path("Reports/results.json"))
        json.add(Fixtures.passed, at: 0)
        try json.finish(RunResult(scenarios: [Fixtures.passed], wallTime: .zero).tally)
        #expect(try folder.read("Reports/results.json") == JSONReport.render(RunResult(scenarios: [Fixtures.passed], wallTime: .zero)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Reports")) == ["results.json"])
    }

    /// The scratch file has no name once open, so a run killed mid-way leaves nothing behind.
    @Test func theScratchFileIsNamelessWhileTheReportIsWritten() throws {
        let folder = try TemporaryFolder()
        let spool = try ReportSpool(in: folder.url)
        try spool.append("first piece", at: 1)
        try spool.append("zeroth", at: 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        #expect(try spool.piece(at: 1) == Data("first piece".utf8))
        #expect(try spool.piece(at: 0) == Data("zeroth".utf8))
    }

    @Test func aReportThatCannotBeWrittenNamesItsPath() throws {
        let folder = try TemporaryFolder()
        // A folder cannot be made where a file stands.
        _ = try folder.write("taken", "a file")
        let path = folder.path("taken/junit.xml")
        let junit = JUnitReport.Stream(path: path)
        junit.add(Fixtures.passed, at: 0)
        #expect {
            try junit.finish(RunResult(scenarios: [Fixtures.passed], wallTime: .zero).tally)
        } throws: { error in
            (error as? ReportWriteError)?.path == path
        }
        #expect(try folder.read("taken") == "a file")
    }
}
