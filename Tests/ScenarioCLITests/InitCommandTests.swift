import Foundation
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
    }

    @Test func existingFilesAreLeftAloneAndReported() throws {
        let folder = try TemporaryFolder()
        try folder.write("Specs/example/first-scenario.json", "mine")
        let made = try ScenarioBinary.run(["init", "Specs"], in: folder.url)
        #expect(made.status == 2)
        #expect(made.stderr.contains("skipped Specs/example/first-scenario.json: it exists already"))
        #expect(try folder.read("Specs/example/first-scenario.json") == "mine")
    }

    @Test func theSchemaItWritesIsTheRepositorySchema() throws {
        let template = RepositoryPaths.root.appendingPathComponent("Sources/ScenarioCommandLine/Templates/scenario.schema.json")
        let schema = RepositoryPaths.scenarios.appendingPathComponent("scenario.schema.json")
        #expect(try Data(contentsOf: template) == Data(contentsOf: schema), "copy Scenarios/scenario.schema.json over the template")
    }
}
