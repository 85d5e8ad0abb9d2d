import Foundation
import Testing

@testable import ScenarioEngine

@Suite("JUnit report")
struct JUnitReportTests {
    @Test(arguments: [
        ("login", "Scenarios"), ("auth/login", "auth"), ("auth/refresh/coalesce", "auth.refresh"),
        ("a/b/c/d", "a.b.c"),
    ])
    func classnameIsTheFolderWithDots(id: String, classname: String) {
        #expect(JUnitReport.classname(forID: id) == classname)
    }

    @Test func oneSuitePerFolderInOrderOfFirstAppearance() throws {
        let root = JUnitReport.document(Fixtures.run)
        #expect(root.name == "testsuites")
        #expect(root.elements.map { $0[attribute: "name"] } == ["auth", "auth.refresh", "Scenarios"])
        let auth = try #require(root.elements.first)
        #expect(auth.elements.map { $0[attribute: "name"] } == ["Login works", "Slow login"])
    }

    @Test func countsAddUp() throws {
        let xml = JUnitReport.render(Fixtures.run)
        let summary = try JUnitStructure.check(xml)
        #expect(summary.tests == 4)
        #expect(summary.failures == 1)
        #expect(summary.errors == 1)
        #expect(summary.skipped == 1)
        #expect(xml.contains(#"<testsuites name="scenario" tests="4" failures="1" errors="1" time="0.052">"#))
        #expect(xml.contains(#"<testsuite name="auth" tests="2" failures="0" errors="0" skipped="1" time="0.012">"#))
    }

    @Test func testCaseElements() {
        let xml = JUnitReport.render(Fixtures.run)
        #expect(xml.contains(#"<testcase name="Login works" classname="auth" time="0.012"/>"#) == false)
        #expect(xml.contains(#"<testcase name="Login works" classname="auth" time="0.012">"#))
        #expect(xml.contains(#"<system-out>→ POST /login"#))
        #expect(xml.contains(#"<skipped message="has none of the tags smoke"/>"#))
        #expect(xml.contains(#"type="AssertionFailure">step 1 `do request ×5` at Scenarios/auth/refresh/coalesce.json:14:7"#))
        #expect(xml.contains(#"<failure message="outcome of copy 3: expected error forbidden, got a value (and 1 more)""#))
        #expect(xml.contains("-   \"auth\": \"unauthenticated\""))
        #expect(xml.contains(#"<error message="Scenarios/broken.json:3:5: error: unknown key &apos;tims&apos;"#))
        #expect(xml.contains(#"type="ScenarioError">"#))
    }

    @Test func passingCaseWithoutTranscriptIsEmptyElement() {
        let run = RunResult(
            scenarios: [ScenarioResult(id: "a", name: "A", file: "a.json", status: .passed, wallTime: .milliseconds(5))], wallTime: .zero)
        #expect(JUnitReport.render(run).contains(#"<testcase name="A" classname="Scenarios" time="0.005"/>"#))
    }

    @Test func escapesAndStripsIllegalCharacters() throws {
        let run = RunResult(scenarios: [Fixtures.nasty], wallTime: .zero)
        let xml = JUnitReport.render(run)
        #expect(xml.contains(#"name="Quotes &quot;q&quot; &amp; &lt;tags&gt; &apos;a&apos;""#))
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        #expect(xml.contains("got &lt;b&gt;&amp;amp;&lt;/b&gt; ]]&gt; bell&#13;\nnext"))
        #expect(xml.contains("escape[31m") || xml.contains("[31mescape"))
        #expect(xml.contains("ü ✓ 𝄞"))
        // It parses back to the same text, less the characters XML cannot carry.
        let root = try JUnitMerge.parse(Data(xml.utf8), name: "nasty")
        let testcase = try #require(root.elements.first?.elements.first)
        #expect(testcase[attribute: "name"] == "Quotes \"q\" & <tags> 'a'")
        let failure = try #require(testcase.elements.first)
        #expect(failure[attribute: "message"]?.contains("bell\r\nnext") == true)
        try JUnitStructure.check(xml)
        try JUnitStructure.validateIfPossible(xml)
    }

    @Test func attributeLineBreaksSurviveAsReferences() {
        #expect(XMLMarkup.escapeAttribute("a\nb\tc\rd\"'<>&") == "a&#10;b&#9;c&#13;d&quot;&apos;&lt;&gt;&amp;")
        #expect(XMLMarkup.escapeText("a\u{0}b\u{FFFE}c\u{FFFF}d\u{1F}e") == "abcde")
    }

    @Test func collidingNamesInOneClassGetTheirIDs() {
        let run = RunResult(
            scenarios: [
                ScenarioResult(id: "auth/one", name: "Same", file: "", status: .passed),
                ScenarioResult(id: "auth/two", name: "Same", file: "", status: .passed),
                ScenarioResult(id: "other/three", name: "Same", file: "", status: .passed),
            ], wallTime: .zero)
        let xml = JUnitReport.render(run)
        #expect(xml.contains(#"name="Same [auth/one]""#))
        #expect(xml.contains(#"name="Same [auth/two]""#))
        #expect(xml.contains(#"<testcase name="Same" classname="other""#))
    }

    @Test(arguments: [(Int64(0), "0.000"), (5, "0.005"), (12, "0.012"), (1_234, "1.234"), (61_000, "61.000")])
    func timesHaveThreeDecimalsAndADot(milliseconds: Int64, text: String) {
        #expect(Duration.formatSeconds(milliseconds: milliseconds) == text)
        #expect(Duration.milliseconds(milliseconds).reportSeconds == text)
    }

    @Test func subMillisecondTimesRound() {
        #expect(Duration.microseconds(1_499).reportMilliseconds == 1)
        #expect(Duration.microseconds(1_500).reportMilliseconds == 2)
    }

    @Test func emptyRunIsAValidReport() throws {
        let xml = JUnitReport.render(RunResult(scenarios: [], wallTime: .zero))
        #expect(xml.contains(#"<testsuites name="scenario" tests="0" failures="0" errors="0" time="0.000"/>"#))
        try JUnitStructure.check(xml)
        try JUnitStructure.validateIfPossible(xml)
    }

    @Test func validatesAgainstTheSchema() throws {
        let run = RunResult(scenarios: Fixtures.run.scenarios + [Fixtures.nasty], wallTime: .seconds(1))
        try JUnitStructure.validateIfPossible(JUnitReport.render(run))
    }
}
