import Foundation
import Testing

@Suite("Help, version, lint, list, actions")
struct HelpAndCommandsTests {
    static let commands = [
        "run", "lint", "list", "actions", "merge", "import", "redact", "export", "shrink", "verify", "export-pact", "init",
    ]

    @Test(arguments: commands)
    func everyCommandHasHelp(command: String) throws {
        let folder = try TemporaryFolder()
        for flag in ["--help", "-h"] {
            let result = try ScenarioBinary.run([command, flag], in: folder.url)
            #expect(result.status == 0)
            #expect(result.stdout.contains("USAGE: scenario \(command)"))
            #expect(result.stdout.contains("OPTIONS:"))
            #expect(result.stdout.contains("-h, --help"))
            #expect(result.stdout.contains("EXIT CODES:"))
            #expect(result.stderr.isEmpty)
        }
        let viaHelp = try ScenarioBinary.run(["help", command], in: folder.url)
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout == (try ScenarioBinary.run([command, "--help"], in: folder.url)).stdout)
    }

    /// A team's runner has a name of its own: usage lines and hints use the name it was started by.
    @Test func usageNamesTheProgramAsItWasStarted() throws {
        let folder = try TemporaryFolder()
        let binary = try #require(ScenarioBinary.url)
        let runner = folder.url.appendingPathComponent("notes-scenarios")
        try FileManager.default.createSymbolicLink(at: runner, withDestinationURL: binary)
        let typo = try ScenarioBinary.run(["rn"], in: folder.url, executable: runner)
        #expect(typo.stderr.contains("Run 'notes-scenarios --help' for usage."), "\(typo.stderr)")
        let option = try ScenarioBinary.run(["run", "--bogus"], in: folder.url, executable: runner)
        #expect(option.stderr.contains("unknown option '--bogus' for 'notes-scenarios run'"), "\(option.stderr)")
        #expect(option.stderr.contains("Run 'notes-scenarios run --help' for usage."), "\(option.stderr)")
        let help = try ScenarioBinary.run(["run", "--help"], in: folder.url, executable: runner)
        #expect(help.stdout.contains("USAGE: notes-scenarios run"), "\(help.stdout)")
    }

    @Test func topLevelHelpListsCommandsAndExitCodes() throws {
        let folder = try TemporaryFolder()
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = try ScenarioBinary.run(arguments, in: folder.url)
            #expect(result.status == 0)
            for command in Self.commands { #expect(result.stdout.contains("  \(command) ")) }
            for code in ["  0 ", "  1 ", "  2 ", "  64 "] { #expect(result.stdout.contains(code)) }
            #expect(result.stdout.contains("NO_COLOR"))
            #expect(result.stdout.contains("GITHUB_ACTIONS"))
        }
    }

    /// The help's exit codes say what the binary does when nothing is found: 2, and 0 only with
    /// --allow-empty (it once said 0 "when there was nothing to run").
    @Test func exitCodeHelpTellsTheTruthAboutAnEmptyRun() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Scenarios"), withIntermediateDirectories: true)
        let help = try ScenarioBinary.run(["--help"], in: folder.url).stdout.split(separator: "\n").map(String.init)
        let zero = try #require(help.first { $0.hasPrefix("  0 ") })
        let two = try #require(help.first { $0.hasPrefix("  2 ") })
        #expect(try ScenarioBinary.run(["run"], in: folder.url).status == 2)
        #expect(two.contains("nothing was found or selected to run"), "\(two)")
        #expect(try ScenarioBinary.run(["run", "--allow-empty"], in: folder.url).status == 0)
        #expect(zero.contains("only with --allow-empty"), "\(zero)")
        #expect(!zero.contains("there was nothing to run"))
    }

    @Test func theREADMEListsEveryCommand() throws {
        let readme = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        for command in Self.commands { #expect(readme.contains("\nscenario \(command) "), "README's command list lacks \(command)") }
    }

    @Test func runHelpDocumentsEveryFlag() throws {
        let folder = try TemporaryFolder()
        let result = try ScenarioBinary.run(["run", "--help"], in: folder.url)
        for flag in [
            "--filter REGEX", "--tag TAG", "--skip-tag TAG", "-j, --jobs N", "--shard I/N", "--repeat N", "--fail-fast",
            "--junit PATH", "--json PATH", "--no-reports", "-q, --quiet", "-v, --verbose", "--route ROUTE", "--show-secrets",
        ] {
            #expect(result.stdout.contains(flag), "missing \(flag)")
        }
        #expect(result.stdout.contains("Reports/junit.xml"))
        #expect(result.stdout.contains("Reports/results.json"))
    }

    @Test func version() throws {
        let folder = try TemporaryFolder()
        let result = try ScenarioBinary.run(["--version"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("scenario "))
    }

    @Test func lintReportsEveryProblemInOnePass() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/good.json", ScenarioText.empty(name: "Good"))
        try folder.write("Scenarios/bad/one.json", ScenarioText.broken)
        try folder.write("Scenarios/bad/two.json", "{ \"name\": 3, \"description\": \"x\", \"steps\": [] }")
        try folder.write("Scenarios/bad/three.json", "{ not json")
        try folder.write("Scenarios/dup.json", ScenarioText.empty(name: "Good"))
        let result = try ScenarioBinary.run(["lint"], in: folder.url)
        #expect(result.status == 2, "\(result.output)")
        let problems = result.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(problems.count >= 5, "\(result.stdout)")
        for line in problems {
            #expect(line.range(of: #"^[^:]+\.json:\d+:\d+: error: "#, options: .regularExpression) != nil, "\(line)")
        }
        #expect(result.stdout.contains("Scenarios/bad/one.json:3:"))
        #expect(result.stdout.contains("descriptio"))
        #expect(result.stdout.contains("tims"))
        #expect(result.stdout.contains("Scenarios/bad/two.json"))
        #expect(result.stdout.contains("Scenarios/bad/three.json"))
        #expect(result.stdout.contains("the name 'Good' is also used by"))
        #expect(result.stdout.contains("Checked 5 files"))
    }

    @Test func lintPassesCleanFilesAndFailsMissingPaths() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/good.json", ScenarioText.empty(name: "Good"))
        let clean = try ScenarioBinary.run(["lint"], in: folder.url)
        #expect(clean.status == 0, "\(clean.output)")
        #expect(clean.stdout.contains("Checked 1 file: no problems"))
        let missing = try ScenarioBinary.run(["lint", "Nowhere"], in: folder.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("error: no such file or folder: Nowhere"))
    }

    @Test func listShowsAlignedColumns() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/auth/login.json", ScenarioText.empty(name: "Login works", tags: ["auth", "smoke"]))
        try folder.write("Scenarios/x.json", ScenarioText.empty(name: "X"))
        let result = try ScenarioBinary.run(["list"], in: folder.url)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "ID          NAME         TAGS",
                "auth/login  Login works  auth, smoke",
                "x           X",
            ])
        try folder.write("Scenarios/broken.json", ScenarioText.broken)
        let broken = try ScenarioBinary.run(["list"], in: folder.url)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("broken.json:"))
        #expect(broken.stdout.contains("auth/login"))
    }

    @Test func actionsListsTheGivenKeys() throws {
        let folder = try TemporaryFolder()
        let result = try ScenarioBinary.run(["actions"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Actions of the "))
        #expect(result.stdout.contains("Keys of \"given\":"))
        #expect(result.stdout.contains("clock.start"))
    }
}
