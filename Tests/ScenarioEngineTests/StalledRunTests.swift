import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A stack that blocks the scenario's thread for real inside a test bundle: the run ends as an
/// error after the stall limit, and the scenarios after it end at once saying why, instead of
/// the test process waiting for good.
@Suite struct StalledRunTests {
    @Test func aLostTurnEndsItsHolderOnceAndRefusesEveryLaterRun() throws {
        let turn = ProcessTurn()
        let ended = ResultBox<String>()
        try turn.take { ended.set($0) }
        let waiter = ResultBox<String>()
        let waiting = Thread {
            do {
                try turn.take { _ in }
                waiter.set("took the turn")
            } catch {
                waiter.set("\(error)")
            }
        }
        waiting.start()
        turn.lose("stalled", reason: "not run: lost")
        #expect(ended.value == "stalled")
        while waiter.value == nil { Thread.sleep(forTimeInterval: 0.001) }
        #expect(waiter.value == "not run: lost")
        #expect(throws: ProcessTurn.Lost.self) { try turn.take { _ in } }
    }

    /// The probe below, in a test process of its own with a one-second stall limit.
    @Test(.enabled(if: TestProcess.isAvailable)) func aRunBlockedForRealEndsAndTheNextIsRefused() throws {
        try runProbe("probe")
    }

    /// The command's probe below, likewise: a command that runs scenarios in its own process.
    @Test(.enabled(if: TestProcess.isAvailable)) func aCommandGoesOnInAWorkerAfterARunBlockedForReal() throws {
        try runProbe("commandProbe")
    }

    /// Runs one probe of this suite in a test process of its own, with a one-second stall limit,
    /// and expects it to pass.
    private func runProbe(_ name: String) throws {
        try TestProcess.expectPasses(
            "StalledRunTests/\(name)", environment: ["SCENARIO_STALL_SECONDS": "1", "SCENARIO_STALL_PROBE": name])
    }

    struct BlockingDriver: ScenarioDriver {
        var name: String { "Blocking" }
        var actions: [ActionSpec] { [ActionSpec("block", "reads a pipe nothing writes to"), ActionSpec("nothing", "does nothing")] }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession { BlockingSession() }
    }

    struct BlockingSession: ActionOnlySession {
        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            guard action == "block" else { return .value(.null) }
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            var byte: UInt8 = 0
            _ = read(ends[0], &byte, 1)  // blocks the scenario's thread for real, for good
            return .value(.null)
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SCENARIO_STALL_PROBE"] == "probe"))
    func probe() async {
        let runner = ScenarioRunner(driver: BlockingDriver())
        let stalled = await runner.run(Build.scenario(steps: [Build.step(.perform(Build.call("block"), parallel: 1, expect: .ok))]))
        #expect(stalled.status == .error)
        #expect(stalled.explanation.contains("made no progress for 1.0 seconds of real time"), "\(stalled.explanation)")
        // The process goes on: nothing of it (a job, a connection) is taken for that run's any more.
        #expect(ScenarioHost.shared.runningScenario == nil)
        let next = await runner.run(Build.scenario(steps: [Build.step(.perform(Build.call("nothing"), parallel: 1, expect: .ok))]))
        #expect(next.status == .error)
        #expect(next.explanation.contains("blocked the scenario's thread for real earlier in this process"), "\(next.explanation)")
    }

    /// `scenario run --jobs 1`: the process owns every thread for its scenarios, and the blocked
    /// run's thread is never given back. Before, the process stopped there without reports; now the
    /// blocked scenario is an error and the next runs in a worker (here a stand-in that answers passed).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SCENARIO_STALL_PROBE"] == "commandProbe"))
    func commandProbe() async throws {
        ScenarioProcess.claimWholeProcess()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stall-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (file, action) in [("1-blocks", "block"), ("2-after", "nothing")] {
            let text = #"{ "name": "\#(file)", "description": "d", "steps": [ { "do": "\#(action)" } ] }"#
            try Data(text.utf8).write(to: folder.appendingPathComponent("\(file).json"))
        }
        let answer = ScenarioResult(id: "2-after", name: "ran in a worker", file: "2-after.json", status: .passed)
        let reply = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
        let worker = WorkerLaunch(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "read line; printf '%s\\n' '{\"result\":\(reply)}'"])
        let suite = SuiteRunner(driver: BlockingDriver(), configuration: .init(jobs: 1, workers: worker))
        let outcome = await suite.run(files: try suite.discover([folder.path]), keeping: .all) { _, _ in }
        let results = outcome.run.scenarios
        #expect(results.map(\.status) == [.error, .passed])
        #expect(results.first?.explanation.contains("the scenarios after it run in a worker process") == true, "\(results)")
        #expect(results.last?.name == "ran in a worker")
    }
}
