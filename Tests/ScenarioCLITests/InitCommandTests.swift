import Foundation
import ScenarioEngine
import Testing

/// `scenario init` gives a folder that lints and runs, and never overwrites anything.
@Suite("scenario init")
struct InitCommandTests {
    @Test func theScaffoldLintsAndRuns() throws {
        let folder = try TemporaryFolder()
        let made = try ScenarioBinary.run(["init", "Specs", "--driver-skeleton", "Sources/MyDriver.swift"], in: folder.url)
        #expect(made.status == 0, "\(made.output)")
        #expect(try folder.read("Sources/MyDriver.swift").contains("struct MyDriver: ScenarioDriver"))
        let lint = try ScenarioBinary.run(["lint", "Specs"], in: folder.url)
        #expect(lint.status == 0, "\(lint.output)")
        #expect(lint.stdout.contains("Checked 1 file: no problems"))
        let run = try ScenarioBinary.run(["run", "Specs", "--no-reports"], in: folder.url)
        #expect(run.status == 0, "\(run.output)")
        // The folder's rules, which govern the example (it lints with them), start with one rule.
        let rules = try #require(JSONValue.parse(Data(try folder.read("Specs/invariants.json").utf8)))
        #expect(rules["$schema"] == "invariants.schema.json")
        #expect(rules["invariants"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["no-request-before-retry-after"])
        #expect(try folder.read("Specs/invariants.schema.json").contains("respectsRetryAfter"))
        // A broken rule file is the example's load error: the file written is the one that governs it.
        try folder.write("Specs/invariants.json", #"{ "invariants": [ { "id": "x" } ] }"#)
        #expect(try ScenarioBinary.run(["lint", "Specs"], in: folder.url).status != 0)
    }

    /// `import --shrink` where no invariant governs the draft says how to add one, instead of
    /// silently shrinking nothing.
    @Test func importShrinkWithoutInvariantsSaysHowToAddOne() throws {
        let folder = try TemporaryFolder()
        let trace = RepositoryPaths.root.appendingPathComponent("Tests/Fixtures/traces/handmade/chrome-expired-token-refresh.har")
        let made = try ScenarioBinary.run(["import", trace.path, "-o", "draft.json", "--shrink"], in: folder.url)
        #expect(made.status == 0, "\(made.output)")
        #expect(made.stdout.contains("no invariants.json governs draft.json"), "\(made.output)")
        #expect(made.stdout.contains("init` writes one with a starter rule"), "\(made.output)")
    }

    @Test func existingFilesAreLeftAloneAndReported() throws {
        let folder = try TemporaryFolder()
        try folder.write("Specs/example/first-scenario.json", "mine")
        let made = try ScenarioBinary.run(["init", "Specs"], in: folder.url)
        #expect(made.status == 2)
        #expect(made.stderr.contains("skipped Specs/example/first-scenario.json: it exists already"))
        #expect(try folder.read("Specs/example/first-scenario.json") == "mine")
    }

    @Test(arguments: ["scenario.schema.json", "invariants.schema.json"])
    func theSchemasItWritesAreTheRepositorySchemas(_ name: String) throws {
        let template = RepositoryPaths.root.appendingPathComponent("Sources/ScenarioCommandLine/Templates/\(name)")
        let schema = RepositoryPaths.scenarios.appendingPathComponent(name)
        #expect(try Data(contentsOf: template) == Data(contentsOf: schema), "copy Scenarios/\(name) over the template")
    }
}
