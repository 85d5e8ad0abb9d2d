import Foundation
import HTTPCore
import Testing

@testable import ScenarioEngine

/// A driver whose stack never starts, so every scenario that runs ends as an error.
private struct UnstartableDriver: ScenarioDriver {
    struct CannotStart: Error {}
    var name: String { "Unstartable" }
    var actions: [ActionSpec] { [] }
    var givenKeys: [GivenSpec] { [] }
    func makeSession(_ context: DriverContext) async throws -> any DriverSession { throw CannotStart() }
}

/// Collects progress reports from any thread.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []
    func append(_ id: String) { lock.withLock { ids.append(id) } }
    var all: [String] { lock.withLock { ids } }
}

@Suite("Suite runner")
struct SuiteRunnerTests {
    private func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("suite/a.json", ScenarioText.empty(name: "A", tags: ["smoke"]))
        try folder.write("suite/b/broken.json", ScenarioText.broken)
        try folder.write("suite/c.json", ScenarioText.empty(name: "C", tags: ["slow"]))
        try folder.write("suite/d.json", ScenarioText.empty(name: "D"))
        try folder.write("suite/scenario.schema.json", "{}")
        return folder
    }

    @Test func loadFailuresBecomeErrorsAndFilteredOnesSkipped() async throws {
        let folder = try folder()
        let configuration = SuiteRunner.Configuration(selection: try ScenarioSelection(skipTags: ["slow"]), jobs: 2)
        let runner = SuiteRunner(driver: UnstartableDriver(), configuration: configuration)
        let progress = Collected()
        let outcome = try await runner.run([folder.path("suite")]) { progress.append($0.id) }
        let scenarios = outcome.run.scenarios
        #expect(scenarios.map(\.id) == ["a", "b/broken", "c", "d"])
        #expect(scenarios.map(\.status) == [.error, .error, .skipped, .error])
        #expect(Set(progress.all) == Set(scenarios.map(\.id)))
        #expect(progress.all.count == 4)
        #expect(outcome.loadFailures.count == 1)
        let broken = scenarios[1]
        #expect(broken.errorLocation?.file == folder.path("suite/b/broken.json"))
        #expect(broken.errorMessage?.contains("descriptio") == true)
        #expect(broken.errorMessage?.contains("tims") == true)
        #expect(scenarios[2].errorMessage == "tagged slow (--skip-tag)")
    }

    @Test func aFileReadOnlyWhenItRunsFailsToLoadJustTheSame() async throws {
        // Nothing in this selection needs a name or tag, so files are read where they run.
        let folder = try folder()
        let outcome = try await SuiteRunner(driver: UnstartableDriver(), configuration: .init(jobs: 1)).run([folder.path("suite")])
        #expect(outcome.run.scenarios.map(\.status) == [.error, .error, .error, .error])
        #expect(outcome.loadFailures.map(\.file) == [folder.path("suite/b/broken.json")])
        let broken = outcome.run.scenarios[1]
        #expect(broken.errorLocation?.file == folder.path("suite/b/broken.json"))
        #expect(broken.errorMessage?.contains("tims") == true)
    }

    @Test func keepingProblemsOnlyStillCountsAndHandsOnEverything() async throws {
        let folder = try folder()
        let configuration = SuiteRunner.Configuration(selection: try ScenarioSelection(skipTags: ["slow"]), jobs: 1)
        let runner = SuiteRunner(driver: UnstartableDriver(), configuration: configuration)
        var received: [Int: String] = [:]
        let outcome = await runner.run(files: try runner.discover([folder.path("suite")]), keeping: .problems) { result, slot in
            #expect(received[slot] == nil, "slot \(slot) handed on twice")
            received[slot] = result.id
        }
        #expect(received == [0: "a", 1: "b/broken", 2: "c", 3: "d"])
        // The skipped one is counted but not kept.
        #expect(outcome.run.scenarios.map(\.id) == ["a", "b/broken", "d"])
        #expect(outcome.tally.total == 4)
        #expect(outcome.tally.skipped == 1)
        #expect(outcome.tally.errors == 3)
    }

    @Test func failFastSkipsWhatWasNotStarted() async throws {
        let folder = try folder()
        let configuration = SuiteRunner.Configuration(jobs: 1, failFast: true)
        let outcome = try await SuiteRunner(driver: UnstartableDriver(), configuration: configuration).run([folder.path("suite")])
        let statuses = outcome.run.scenarios.map(\.status)
        #expect(statuses == [.error, .error, .skipped, .skipped])
        #expect(outcome.run.scenarios[3].errorMessage == SuiteRunner.failFastReason)
    }

    @Test func shardsLeaveOthersOut() async throws {
        let folder = try folder()
        var seen: [String] = []
        for index in 1...3 {
            let shard = try #require(ScenarioSelection.Shard(index: index, count: 3))
            let configuration = SuiteRunner.Configuration(selection: try ScenarioSelection(shard: shard))
            let outcome = try await SuiteRunner(driver: UnstartableDriver(), configuration: configuration).run([folder.path("suite")])
            #expect(outcome.otherShards + outcome.run.scenarios.count == 4)
            seen += outcome.run.scenarios.map(\.id)
        }
        #expect(seen.sorted() == ["a", "b/broken", "c", "d"])
    }

    @Test func missingPathThrows() {
        #expect(throws: (any Error).self) {
            _ = try SuiteRunner(driver: UnstartableDriver()).load(["/no/such/folder-\(UUID().uuidString)"])
        }
    }

    /// A run of requests to these paths, each answered 200 by exchange `x`.
    private func outcome(_ paths: [String], status: ScenarioResult.Status = .passed) -> RunOutcome {
        var record = RunRecord()
        for (offset, path) in paths.enumerated() {
            let number = record.sent(HTTPRequest(method: .get, path: path), exchange: "x", at: .milliseconds(offset))
            record.answered(number, .response(HTTPResponse(status: .ok)), at: .milliseconds(offset))
        }
        return RunOutcome(
            result: ScenarioResult(id: "a", name: "A", file: "a.json", status: status), record: record,
            redactor: SecretRedactor(secrets: []), divergence: nil)
    }

    @Test func sameRunsAreDeterministic() {
        let run = outcome(["/one", "/two"])
        #expect(ScenarioRunner.nondeterminism(run, run, run: 2, location: nil) == nil)
    }

    @Test func differingStatusIsReported() throws {
        let failure = try #require(
            ScenarioRunner.nondeterminism(outcome(["/one"]), outcome(["/one"], status: .failed), run: 3, location: nil))
        #expect(!failure.passed)
        #expect(failure.message.hasPrefix("nondeterministic: run 3 differed from run 1: status passed in run 1, failed in run 3"))
    }

    @Test func firstDifferingEventIsReported() throws {
        let first = outcome(["/one", "/two", "/three"])
        let failure = try #require(ScenarioRunner.nondeterminism(first, outcome(["/one", "/TWO", "/three"]), run: 2, location: nil))
        #expect(failure.message.hasPrefix("nondeterministic: run 2 differed from run 1: first differing event is 3 of 6"))
        #expect(failure.expected == "[0.001s] #2 → GET /two")
        #expect(failure.actual == "[0.001s] #2 → GET /TWO")

        let shorter = try #require(ScenarioRunner.nondeterminism(first, outcome(["/one", "/two"]), run: 2, location: nil))
        #expect(shorter.expected == "[0.002s] #3 → GET /three")
        #expect(shorter.actual == "(end of the run)")
    }
}
