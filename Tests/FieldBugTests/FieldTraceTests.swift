import Foundation
import ScenarioKit
import Testing

/// The HARs in each stack's `Traces/` are what its team's debug build records: the buggy
/// release's own URLSession, recorded by `URLSessionRecorder` (installed in its configuration as
/// the debug menu installs it), driven through the session its user had against a backend
/// scripted as the field's (`NAME.script.json`: rotating refresh tokens, the user's steps, the
/// real latencies). Each test records it again and compares it with the committed file, so the
/// two cannot drift apart; `FIELD_TRACES_WRITE=1` writes the file instead.
@Suite struct FieldTraceTests {
    /// A recorded trace: the stack, the script's name in `Traces/` (without `.script.json`).
    struct Recording: Sendable, CustomTestStringConvertible {
        let stack: FieldStack
        let name: String
        /// How many entries the HAR holds: a field HAR is a short session around the bug.
        var entries: ClosedRange<Int> = 10...20
        var testDescription: String { "\(stack.name)/\(name)" }
        var script: URL { stack.url.appendingPathComponent("Traces/\(name).script.json") }
        var har: URL { stack.url.appendingPathComponent("Traces/\(name).har") }
    }

    static let recordings = [
        Recording(stack: .taskBoard, name: "field-session"),
        Recording(stack: .storefront, name: "field-session"),
        Recording(stack: .messenger, name: "field-session"),
        Recording(stack: .taskBoard, name: "held-session", entries: 100...200),
    ]

    /// Runs the script on the buggy release with a recorder of its own in the app's session
    /// configuration: the script's own result, and the HAR the debug menu would write.
    static func record(_ recording: Recording) async throws -> (result: ScenarioResult, har: String) {
        let recorder = URLSessionRecorder()
        let driver = recording.stack.recordingBuggy(recorder)
        let script = try ScenarioLoader(actions: driver.actions, givenKeys: driver.givenKeys).load(
            contentsOf: recording.script.path, id: recording.name
        ).get()
        let result = await ScenarioRunner(driver: driver, plan: RunPlan(route: .urlSession)).run(script)
        // The one header a phone's capture would not show: the scenario's own route marker,
        // which the run's session configuration adds to every request.
        var log = recorder.log()
        for index in log.entries.indices {
            log.entries[index].request.headers.removeAll { $0.name == ScriptedURLProtocol.runHeader }
        }
        return (result, log.harText())
    }

    @Test(arguments: recordings)
    func theCommittedHARIsWhatTheBuggyReleaseRecords(_ recording: Recording) async throws {
        let (result, har) = try await Self.record(recording)
        #expect(result.status == .passed, "the script is what happened in the field: \(result.explanation)")
        if ProcessInfo.processInfo.environment["FIELD_TRACES_WRITE"] == "1" {
            try har.write(to: recording.har, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: recording.har, encoding: .utf8)
        #expect(committed == har, "Traces/\(recording.name).har differs from what the recorder records; FIELD_TRACES_WRITE=1 writes it")
        let entries = try HARReader(file: "\(recording.name).har").read(Data(committed.utf8)).entries
        #expect(recording.entries.contains(entries.count), "\(entries.count) entries")
    }
}
