import Foundation
import Testing

/// Argument parsing, through the built executable (the test target cannot import an
/// executable module): every flag is accepted, every mistake is a usage error (64) with a
/// message that says what to do.
@Suite("Command line parsing")
struct CommandLineParsingTests {
    private func run(_ arguments: [String], in folder: TemporaryFolder) throws -> CLIRun {
        try ScenarioBinary.run(arguments, in: folder.url)
    }

    /// A folder with one scenario that loads, so valid flags reach the run.
    private func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/one.json", ScenarioText.empty(name: "One", tags: ["smoke"]))
        return folder
    }

    @Test(arguments: [
        ["--filter", "one"], ["--filter=one"], ["--tag", "smoke"], ["--tag", "smoke", "--tag", "x"], ["--skip-tag", "slow"],
        ["--skip-tag=a", "--skip-tag=b"], ["--jobs", "3"], ["-j", "1"], ["--jobs=2"], ["--shard", "1/2", "--allow-empty"],
        ["--shard=2/2", "--allow-empty"],
        ["--repeat", "2"], ["--fail-fast"], ["--junit", "out/j.xml"], ["--json", "out/r.json"], ["--no-reports"],
        ["--quiet"], ["-q"], ["--verbose"], ["-v"], ["--route", "direct"], ["--route", "urlSession"], ["--show-secrets"],
        ["--allow-empty"], ["--schedules", "3"], ["--schedules", "2", "--seed", "9"], ["--replay-schedule", "1:2"], ["Scenarios"],
        ["Scenarios/one.json"], ["--", "Scenarios"],
    ])
    func everyRunFlagIsAccepted(flags: [String]) throws {
        let folder = try folder()
        let result = try run(["run"] + flags, in: folder)
        #expect(result.status != 64, "\(flags): \(result.stderr)")
        #expect(!result.stderr.contains("error:"), "\(flags): \(result.stderr)")
        #expect(result.stdout.contains("Summary:"))
    }

    @Test(arguments: [
        (["run", "--filtr", "x"], "unknown option '--filtr' for 'scenario run'; did you mean '--filter'?"),
        (["run", "--tga", "x"], "did you mean '--tag'?"),
        (["run", "-filter", "x"], "unknown option '-filter' for 'scenario run'; did you mean '--filter'?"),
        (["run", "--colour"], "unknown option '--colour' for 'scenario run'"),
        (["run", "--jobs"], "option '--jobs' needs a value: --jobs N"),
        (["run", "--junit", "--quiet"], "option '--junit' needs a value"),
        (["run", "--jobs", "0"], "invalid value '0' for --jobs: expected a whole number of at least 1"),
        (["run", "--jobs", "many"], "invalid value 'many' for --jobs"),
        (["run", "--repeat", "-1"], "invalid value '-1' for --repeat"),
        (["run", "--shard", "4/3"], "invalid value '4/3' for --shard: expected I/N with 1 <= I <= N, such as 2/3"),
        (["run", "--shard", "0/3"], "invalid value '0/3' for --shard"),
        (
            ["run", "--route", "urlsesion"],
            "invalid value 'urlsesion' for --route: expected one of direct, urlSession; did you mean 'urlSession'?"
        ),
        (["run", "--filter", "(unclosed"], "invalid value '(unclosed' for --filter"),
        (["run", "--quiet", "--verbose"], "options '--quiet' and '--verbose' cannot be used together"),
        (["run", "--no-reports", "--junit", "x.xml"], "options '--no-reports' and '--junit' cannot be used together"),
        (["run", "--no-reports", "--json=x.json"], "options '--no-reports' and '--json' cannot be used together"),
        (["run", "--jobs", "1", "--jobs", "2"], "option '--jobs' may be given only once"),
        (["run", "--fail-fast=yes"], "option '--fail-fast' is a flag and takes no value"),
        (["rn"], "unknown command 'rn'; did you mean 'run'?"),
        (["lnt"], "did you mean 'lint'?"),
        (["merg", "a", "b"], "did you mean 'merge'?"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["--verison"], "did you mean '--version'?"),
        ([], "no command given"),
        (["actions", "extra"], "'scenario actions' takes no argument 'extra'"),
        (["merge"], "'scenario merge' needs an output path and at least one input report"),
        (["merge", "out.xml"], "'scenario merge' needs at least one input report"),
        (["help", "rnu"], "did you mean 'run'?"),
        (["list", "--tag", "x"], "unknown option '--tag' for 'scenario list'"),
    ])
    func mistakesAreUsageErrors(arguments: [String], message: String) throws {
        let folder = try folder()
        let result = try run(arguments, in: folder)
        #expect(result.status == 64, "\(arguments): \(result.output)")
        #expect(result.stderr.contains("error: " + message) || result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("for usage."))
        #expect(!folder.exists("Reports"), "a usage error runs nothing")
    }

    @Test func usageErrorsPointAtTheCommandsHelp() throws {
        let folder = try folder()
        let result = try run(["run", "--filtr", "x"], in: folder)
        #expect(result.stderr.hasSuffix("Run 'scenario run --help' for usage.\n"))
        let top = try run(["rn"], in: folder)
        #expect(top.stderr.hasSuffix("Run 'scenario --help' for usage.\n"))
    }

    @Test func helpWinsOverOtherMistakes() throws {
        let folder = try folder()
        let result = try run(["run", "--jobs", "0", "--help"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Run scenarios"))
    }

    @Test func doubleDashEndsOptions() throws {
        let folder = try folder()
        try folder.write("--weird.json", ScenarioText.empty(name: "Weird"))
        let result = try run(["list", "--", "--weird.json"], in: folder)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("Weird"))
    }
}
