import Testing

@testable import ScenarioEngine
@testable import ScenarioTraces

@Suite("Console report")
struct ConsoleReportTests {
    let plain = ConsoleReport(colors: false, verbosity: .normal)

    @Test func progressLines() {
        #expect(plain.progressLine(Fixtures.passed) == "✓ auth/login (12 ms)\n")
        #expect(plain.progressLine(Fixtures.failed) == "✗ auth/refresh/coalesce (40 ms)\n")
        #expect(plain.progressLine(Fixtures.errored) == "✗ broken error (0 ms)\n")
        #expect(plain.progressLine(Fixtures.skipped) == nil)
    }

    @Test func quietPrintsNoProgressAndVerboseMore() {
        let quiet = ConsoleReport(verbosity: .quiet)
        #expect(quiet.progressLine(Fixtures.passed) == nil)
        #expect(quiet.progressLine(Fixtures.failed) == nil)
        let verbose = ConsoleReport(verbosity: .verbose)
        #expect(verbose.progressLine(Fixtures.skipped) == "- auth/slow (skipped: has none of the tags smoke)\n")
        #expect(verbose.progressLine(Fixtures.failed)?.contains("    ✗ 1. do request ×5") == true)
    }

    @Test func anExplanationSaysWhatWentWrongThenTheTranscript() {
        let failed = Fixtures.failed.explanation.split(separator: "\n").map(String.init)
        #expect(failed.contains { $0.contains("expected error forbidden, got a value") })
        #expect(failed.contains { $0.hasSuffix("-   \"auth\": \"unauthenticated\"") })
        #expect(Array(failed.suffix(4)) == ["transcript:"] + Fixtures.failed.transcript)
        let errored = Fixtures.errored.explanation
        #expect(errored.contains("unknown key 'tims'"))
        #expect(Fixtures.passed.explanation == (["transcript:"] + Fixtures.passed.transcript).joined(separator: "\n"))
    }

    @Test func failuresAreRepeatedWithDiffAndTranscript() {
        let section = plain.failureSection(Fixtures.run)
        #expect(section.hasPrefix("Failures:\n"))
        #expect(section.contains("✗ auth/refresh/coalesce — Refresh is coalesced [failed]"))
        #expect(section.contains("step 1 `do request ×5` at Scenarios/auth/refresh/coalesce.json:14:7"))
        #expect(section.contains("outcome of copy 3: expected error forbidden, got a value (Scenarios/auth/refresh/coalesce.json:16:9)"))
        #expect(section.contains("expected: {\"error\":\"forbidden\"}"))
        #expect(section.contains("-   \"auth\": \"unauthenticated\""))
        #expect(section.contains("+   \"auth\": \"authenticated\""))
        #expect(section.contains("  transcript:\n    → GET /feed Authorization: Bearer ‹redacted›\n"))
        #expect(section.contains("✗ broken [error]"))
        #expect(section.contains("unknown key 'tims'"))
        #expect(!section.contains("Login works"))
        #expect(!section.contains("auth/slow"))
        #expect(plain.failureSection(RunResult(scenarios: [Fixtures.passed], wallTime: .zero)).isEmpty)
    }

    @Test func summary() {
        #expect(
            plain.summary(Fixtures.run) == "Ran 3 of 4 scenarios in 55 ms (1 failed, 1 error)\nSummary: 1 passed, 2 failed, 1 skipped\n")
        let green = RunResult(scenarios: [Fixtures.passed], wallTime: .milliseconds(1_500))
        #expect(plain.summary(green) == "Ran 1 scenario in 1.500 s\nSummary: 1 passed, 0 failed, 0 skipped\n")
    }

    @Test func coloursOnlyWhenAsked() {
        let text = plain.render(Fixtures.run)
        #expect(!text.contains("\u{1B}["))
        let coloured = ConsoleReport(colors: true).render(Fixtures.run)
        #expect(coloured.contains("\u{1B}[32m✓\u{1B}[0m auth/login"))
        #expect(coloured.contains("\u{1B}[31m"))
    }

    @Test func renderPutsEverythingInOrder() {
        let text = plain.render(Fixtures.run)
        let progress = text.range(of: "✓ auth/login")
        let failures = text.range(of: "Failures:")
        let summary = text.range(of: "Summary:")
        #expect(progress != nil && failures != nil && summary != nil)
        if let progress, let failures, let summary {
            #expect(progress.lowerBound < failures.lowerBound)
            #expect(failures.lowerBound < summary.lowerBound)
        }
    }
}
