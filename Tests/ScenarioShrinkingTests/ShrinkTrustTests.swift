import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioShrinking

/// What a shrink trusts and what it refuses: a failure must repeat before it is shrunk, the
/// result must fail the same way where it is written, and whatever stops the search, the best
/// found so far is what is written.
@Suite struct ShrinkTrustTests {
    static let long = ShrinkPassTests.scenario(
        exchanges: [ShrinkPassTests.exchange("a", "/a", #", "times": 6"#), ShrinkPassTests.boom],
        steps: [
            ShrinkPassTests.get("/a"), ShrinkPassTests.get("/a"), ShrinkPassTests.get("/a"), ShrinkPassTests.boomStep,
            ShrinkPassTests.get("/a"), ShrinkPassTests.get("/a"), ShrinkPassTests.get("/a"),
        ])

    @Test func aFailureThatDoesNotRepeatIsRefused() async throws {
        let text = ShrinkPassTests.scenario(
            exchanges: [], steps: [#"{ "do": "flaky", "expect": { "value": { "status": 200 } } }"#],
            more: #", "expect": { "requests": { "total": 0 } }"#)
        let fixture = try ShrinkFixture(text, driver: ShrinkTestDriver())
        defer { fixture.remove() }
        // Whichever run this process is at, one of the three fails and another passes.
        guard case .refused(let message) = await fixture.shrink() else {
            Issue.record("a flaky input is refused")
            return
        }
        #expect(message.contains("does not repeat"), "\(message)")
        #expect(message.contains("passed") || message.contains("failed another way"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: fixture.output))
    }

    @Test func anInputThatPassesHasNothingToShrink() async throws {
        let fixture = try ShrinkFixture(
            ShrinkPassTests.scenario(exchanges: [ShrinkPassTests.exchange("a", "/a")], steps: [ShrinkPassTests.get("/a")]),
            driver: ShrinkTestDriver())
        defer { fixture.remove() }
        guard case .passes(let message) = await fixture.shrink() else {
            Issue.record("a passing input has nothing to shrink")
            return
        }
        #expect(message.contains("passes"))
        #expect(!FileManager.default.fileExists(atPath: fixture.output))
    }

    @Test func anInputThatDoesNotLoadSaysWhereAndWhy() async throws {
        let fixture = try ShrinkFixture(#"{ "name": "x", "description": "y", "steps": [{ "do": "gte" }] }"#, driver: ShrinkTestDriver())
        defer { fixture.remove() }
        guard case .unloadable(let failure) = await fixture.shrink() else {
            Issue.record("an input that does not load is refused with its problems")
            return
        }
        #expect(failure.description.contains("input.json:1:"), "\(failure.description)")
        #expect(failure.description.contains("did you mean 'get'"), "\(failure.description)")
    }

    @Test func sameNamesThePartToKeepOrItIsRefused() async throws {
        let fixture = try ShrinkFixture(Self.long, driver: ShrinkTestDriver())
        defer { fixture.remove() }
        var settings = ShrinkSettings.unhurried
        settings.same = "state.auth"
        guard case .refused(let message) = await fixture.shrink(settings) else {
            Issue.record("a --same that names no part of the failure is refused")
            return
        }
        #expect(message.contains("names no part of the failure; its parts are: outcome:get"), "\(message)")
        settings.same = "outcome:get"
        guard case .written(let report) = await fixture.shrink(settings) else {
            Issue.record("a --same that names a part is kept")
            return
        }
        #expect(report.kept.description == "outcome of get: status got 500")
        settings.same = "all"
        guard case .written(let all) = await fixture.shrink(settings) else {
            Issue.record("--same all keeps every part")
            return
        }
        #expect(all.kept.parts.count == 1)
    }

    /// No limit cuts isolating the failure: a machine too slow for any cutting pass still takes
    /// out what fails beside the kept part and writes a regression test, larger but the same verdict.
    @Test func theLimitNeverCutsIsolatingTheFailure() async throws {
        let text = ShrinkPassTests.scenario(
            exchanges: [ShrinkPassTests.exchange("a", "/a", #", "times": 2"#), ShrinkPassTests.boom],
            steps: [ShrinkPassTests.get("/a"), ShrinkPassTests.get("/a"), ShrinkPassTests.boomStep],
            more: #", "expect": { "requests": { "total": 99 } }"#)
        let fixture = try ShrinkFixture(text, driver: ShrinkTestDriver())
        defer { fixture.remove() }
        var settings = ShrinkSettings.unhurried
        settings.stop = { _ in true }
        let report = try #require(await fixture.shrunk(settings))
        #expect(report.stoppedEarly && report.to.steps == 3, "\(report.summary)")
        let result = try await fixture.run()
        #expect(FailureFingerprint.parts(of: result) == report.kept.parts, "\(report.kept)")
        #expect(try fixture.result()["expect"]?["requests"]?["total"] == nil)
    }

    /// The time limit (here a limit on runs, which a test can count on) ends the search, and
    /// the best found by then is checked and written.
    @Test func theLimitWritesTheBestFoundSoFar() async throws {
        let fixture = try ShrinkFixture(Self.long, driver: ShrinkTestDriver())
        defer { fixture.remove() }
        let full = try #require(await fixture.shrunk())
        #expect(!full.stoppedEarly)
        var settings = ShrinkSettings.unhurried
        settings.stop = { runs in runs >= 3 }
        let stopped = try #require(await fixture.shrunk(settings))
        #expect(stopped.stoppedEarly)
        #expect(stopped.to.steps < stopped.from.steps, "\(stopped.summary)")
        #expect(stopped.to.steps > full.to.steps, "\(stopped.summary) against \(full.summary)")
        let result = try await fixture.run()
        #expect(stopped.kept.holds(for: FailureFingerprint.parts(of: result)))
        #expect(try fixture.result()["steps"]?.arrayValue?.count == stopped.to.steps)
    }

    /// What a run that shrinks every failing scenario calls: the result goes into a folder,
    /// named after the scenario's id. It brings no copy of the invariant it breaks (beside the
    /// team's `invariants.json` it would define the id twice): it is checked where the input is,
    /// and copied back there it fails by that invariant alone.
    @Test func intoAFolderTheResultNamesTheInvariantsItBreaksByTheirIDs() async throws {
        let invariants = """
            { "invariants": [
              { "id": "one-boom", "description": "GET /boom is sent at most once.", "check": "maxRepeats", "requests": { "path": "/boom" }, "max": 0 },
              { "id": "quiet", "description": "Nothing is refused twice.", "check": "maxRepeats", "max": 5 }
            ] }
            """
        let text = ShrinkPassTests.scenario(
            exchanges: [#"{ "id": "boom", "request": { "method": "GET", "path": "/boom" }, "response": { "status": 500 }, "times": 2 }"#],
            steps: [ShrinkPassTests.get("/boom"), ShrinkPassTests.get("/boom")],
            more: #", "invariants": { "off": { "quiet": "a test of what comes along" } }"#)
        let fixture = try ShrinkFixture(text, driver: ShrinkTestDriver(), invariants: invariants)
        defer { fixture.remove() }
        let folder = fixture.folder.appendingPathComponent("shrunk/deeper").path
        let outcome = await ScenarioShrinker(driver: ShrinkTestDriver(), plan: RunPlan(), settings: .unhurried)
            .shrink(fixture.input, into: folder)
        guard case .written(let report) = outcome else {
            Issue.record("written: \(outcome)")
            return
        }
        #expect(report.output == folder + "/input.json")
        #expect(report.kept.description == "invariant one-boom")
        let result = try fixture.result(report.output)
        #expect(result["invariants"]?["add"] == nil, "no copy of an invariant the folder defines")
        #expect(result["invariants"]?["off"] == nil, "'quiet' is defined nowhere there")
        #expect(result["$schema"] == "../../../scenario.schema.json", "the schema path leads where it led")
        #expect(result["name"] == "shrink me (shrunk)")
        let description = result["description"]?.stringValue ?? ""
        #expect(description == "Shrunk from input.json: 2 steps, 1 exchange → 2, 1; fails by invariant one-boom.", "\(description)")
        let besideTheInput = fixture.folder.appendingPathComponent("shrunk-back.json").path
        try FileManager.default.copyItem(atPath: report.output, toPath: besideTheInput)
        let run = try await fixture.run(besideTheInput)
        #expect(run.failures.flatMap(\.subjects).map(\.key) == ["invariant:one-boom"], "\(run.failures.map(\.summary))")
    }
}
