import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// The HTML page: one section per scenario, a sequence diagram drawn from the run, the first
/// divergence highlighted, and nothing from a result printed unescaped.
@Suite struct HTMLReportTests {
    /// Five requests held until all are pending, then a request nobody scripted.
    private func run() async -> RunResult {
        var held = Build.scenario(
            exchanges: [Build.exchange("held", path: "/x", status: 403, times: 5, release: .whenPending(5))],
            steps: [Build.step(.perform(Build.call("get", ["path": "/x"]), parallel: 5, expect: .value(["status": 403])))])
        held.id = "burst"
        held.name = "A burst <script>alert(1)</script> & more"
        var stray = Build.scenario(
            exchanges: [Build.exchange("spare", path: "/spare")],
            steps: [Build.step(.perform(Build.call("get", ["path": "/nobody"]), parallel: 1, expect: .value(["status": 200])))])
        stray.id = "stray"
        let runner = ScenarioRunner(driver: TestDriver())
        return RunResult(scenarios: [await runner.run(held), await runner.run(stray)], wallTime: .milliseconds(3))
    }

    @Test func everyScenarioGetsASectionWithItsSequence() async {
        let run = await run()
        #expect(run.scenarios.map(\.status) == [.passed, .failed])
        let page = HTMLReport.render(run)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.components(separatedBy: "<section ").count - 1 == 2)
        #expect(page.components(separatedBy: "<svg ").count - 1 == 2)
        #expect(page.contains("2 scenarios, 1 passed, 1 failed, 0 errors, 0 skipped"))
        // The burst: four held, released by the fifth, five answers.
        #expect(page.components(separatedBy: "held by 'held' (released when 5 are pending)").count - 1 == 2 * 4)  // label and hover title
        #expect(page.components(separatedBy: " released</text>").count - 1 == 4)
        #expect(page.components(separatedBy: "403 Forbidden via held").count - 1 == 2 * 5)
        #expect(page.contains("step 1 · do get ×5"))
        // The stray request is the cause, in the box and in the diagram: it heads the scenario
        // although the wrong outcome it led to came first, and the box names the step that sent
        // it (step 1), not the final check that lists it (step 2).
        #expect(page.contains("Cause: step 1, do get · unmatched requests"))
        #expect(page.contains("<td class=\"problem\">expect · unmatched requests: 1 request(s) matched no exchange"))
        #expect(!page.contains("First divergence"))
        #expect(page.contains("✗ no exchange matches; answered 404"))
    }

    @Test func nothingFromAResultIsPrintedUnescaped() async {
        let page = HTMLReport.render(await run())
        #expect(!page.contains("<script"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"))
    }

    /// The diagram draws what the run recorded, kind by kind, without reading text back.
    @Test func eachKindOfEventIsDrawnAsItself() {
        func entry(_ kind: TranscriptEntry.Kind, _ text: String) -> SequenceDiagram.Event {
            SequenceDiagram.Event(TranscriptEntry(kind: kind, number: 12, time: "1.500s", text: text))
        }
        let request = entry(.request, "GET /feed  Authorization: Bearer ‹redacted#1›")
        #expect(request.kind == .request)
        #expect(request.time == "1.500s")
        #expect(request.number == "#12")
        #expect(request.text == "GET /feed  Authorization: Bearer ‹redacted#1›")
        #expect(request.line == "[1.500s] #12 → GET /feed  Authorization: Bearer ‹redacted#1›")
        #expect(entry(.answer, "fault timedOut via slow").kind == .response)
        #expect(entry(.held, "held by 'x' (released at step 'later')").kind == .held)
        #expect(entry(.released, "released").kind == .released)
        #expect(entry(.unmatched, "no exchange matches; answered 404").kind == .unmatched)
        #expect(entry(.failed, "cancelled by the app").kind == .unmatched)
        #expect(SequenceDiagram.Event(TranscriptEntry(kind: .note, number: nil, time: "", text: "… 12 line(s) left out")).kind == .note)
    }
}
