import Foundation
import Testing

@testable import ScenarioEngine
@testable import ScenarioTraces

@Suite("JUnit merge")
struct JUnitMergeTests {
    private func shard(_ scenarios: [ScenarioResult]) -> (name: String, data: Data) {
        (UUID().uuidString, Data(JUnitReport.render(RunResult(scenarios: scenarios, wallTime: .zero)).utf8))
    }

    @Test func joinsSuitesAndRecomputesTotals() throws {
        let first = shard([Fixtures.passed, Fixtures.errored])
        let second = shard([Fixtures.failed, Fixtures.skipped])
        let merged = try JUnitMerge.merge([first, second])
        let summary = try JUnitStructure.check(merged)
        #expect(summary.tests == 4)
        #expect(summary.failures == 1)
        #expect(summary.errors == 1)
        #expect(summary.skipped == 1)
        // Order: shard by shard, then as written; suites joined where they first appeared.
        #expect(summary.cases == ["auth/Login works", "auth/Slow login", "Scenarios/broken", "auth.refresh/Refresh is coalesced"])
        #expect(merged.contains(#"<testsuites name="scenario" tests="4" failures="1" errors="1" time="0.052">"#))
        try JUnitStructure.validateIfPossible(merged)
    }

    @Test func keepsFailureTextAndTranscripts() throws {
        let merged = try JUnitMerge.merge([shard([Fixtures.failed, Fixtures.nasty])])
        #expect(merged.contains("-   \"auth\": \"unauthenticated\""))
        #expect(merged.contains("<system-out>→ GET /feed Authorization: Bearer ‹redacted›"))
        #expect(merged.contains(#"name="Quotes &quot;q&quot; &amp; &lt;tags&gt; &apos;a&apos;""#))
        #expect(merged == JUnitReport.render(RunResult(scenarios: [Fixtures.failed, Fixtures.nasty], wallTime: .zero)))
    }

    @Test func acceptsForeignReportsAndFixesTheirCounts() throws {
        let foreign = """
            <?xml version="1.0"?>
            <testsuite name="x" tests="99" failures="0" errors="0">
              <properties><property name="k" value="v"/></properties>
              <testcase name="a" classname="x" time="1.5"><failure message="m"><![CDATA[<raw> & text]]></failure></testcase>
              <testsuite name="y" tests="1" failures="0" errors="0"><testcase name="b" classname="y"/></testsuite>
            </testsuite>
            """
        let merged = try JUnitMerge.merge([("foreign.xml", Data(foreign.utf8))])
        let summary = try JUnitStructure.check(merged)
        #expect(summary.tests == 2)
        #expect(summary.failures == 1)
        #expect(merged.contains("&lt;raw&gt; &amp; text"))
        #expect(merged.contains(#"<property name="k" value="v"/>"#))
        try JUnitStructure.validateIfPossible(merged)
    }

    @Test func rejectsWhatIsNotAJUnitReport() {
        #expect(throws: JUnitMerge.Failure.self) { try JUnitMerge.merge([("bad.xml", Data("<testsuites><oops></testsuites>".utf8))]) }
        #expect(throws: JUnitMerge.Failure.self) { try JUnitMerge.merge([("empty.xml", Data())]) }
        do {
            _ = try JUnitMerge.merge([("other.xml", Data("<html/>".utf8))])
            Issue.record("expected a failure")
        } catch {
            #expect(error.description.hasPrefix("other.xml: the root element is <html>"))
        }
    }
}
