import Foundation
import Testing

@testable import ScenarioEngine
@testable import ScenarioTraces

/// `scenario run` end to end: the built executable on small scenario files in a temporary folder.
@Suite("scenario run")
struct RunCommandTests {
    private func json(_ folder: TemporaryFolder, _ path: String = "Reports/results.json") throws -> [String: Any] {
        let data = Data(try folder.read(path).utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func scenarios(_ report: [String: Any]) -> [[String: Any]] {
        report["scenarios"] as? [[String: Any]] ?? []
    }

    @Test func loadErrorExitsTwoAndIsReported() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/broken.json", ScenarioText.broken)
        try folder.write("Scenarios/fine.json", ScenarioText.empty(name: "Fine"))
        let result = try ScenarioBinary.run(["run"], in: folder.url)
        #expect(result.status == 2, "\(result.output)")
        #expect(result.stdout.contains("✗ broken error"))
        #expect(result.stdout.contains("Scenarios/broken.json:3:"))
        let report = try json(folder)
        #expect(scenarios(report).first { $0["id"] as? String == "broken" }?["status"] as? String == "error")
        try JUnitStructure.check(try folder.read("Reports/junit.xml"))
    }

    @Test func missingPathExitsTwo() throws {
        let folder = try TemporaryFolder()
        let result = try ScenarioBinary.run(["run"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.stderr == "error: no such file or folder: Scenarios\n")
    }

    @Test func anEmptyFolderIsNotAPass() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Scenarios"), withIntermediateDirectories: true)
        let result = try ScenarioBinary.run(["run"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no scenario files found in Scenarios"))
        #expect(result.stderr.contains("--allow-empty"))
        let allowed = try ScenarioBinary.run(["run", "--allow-empty"], in: folder.url)
        #expect(allowed.status == 0)
        #expect(allowed.stdout.contains("Summary: 0 passed, 0 failed, 0 skipped"))
        let lint = try ScenarioBinary.run(["lint"], in: folder.url)
        #expect(lint.status == 2)
        let list = try ScenarioBinary.run(["list"], in: folder.url)
        #expect(list.status == 2)
        #expect(list.stderr.contains("no scenario files found in Scenarios"))
        #expect(try ScenarioBinary.run(["list", "--allow-empty"], in: folder.url).status == 0)
    }

    @Test func aSelectionThatRunsNothingIsNotAPass() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/fine.json", ScenarioText.empty(name: "Fine"))
        let result = try ScenarioBinary.run(["run", "--filter", "nothing-is-called-this"], in: folder.url)
        #expect(result.status == 2, "\(result.output)")
        #expect(result.stderr.contains("the selection ran none of the 1 scenario files found"))
        #expect(try ScenarioBinary.run(["run", "--filter", "nothing-is-called-this", "--allow-empty"], in: folder.url).status == 0)
    }

    /// With the scenario's own checks left out, one no invariant governs checks nothing.
    @Test func invariantsOnlyWithNoInvariantIsNotAPass() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/fine.json", ScenarioText.empty(name: "Fine"))
        let result = try ScenarioBinary.run(["run", "--invariants-only", "--no-reports"], in: folder.url)
        #expect(result.status == 2, "\(result.output)")
        #expect(result.stdout.contains("1 skipped"))
        #expect(result.stderr.contains("no invariant governs any of the 1 scenario files found; --invariants-only checked nothing"))
        try folder.write(
            "Scenarios/invariants.json", #"{"invariants": [{"id": "one", "description": "d", "check": "maxInFlight", "max": 1}]}"#)
        let governed = try ScenarioBinary.run(["run", "--invariants-only", "--no-reports"], in: folder.url)
        #expect(governed.status == 0, "\(governed.output)")
        #expect(governed.stdout.contains("1 passed"))
    }

    @Test func pathsThatCannotBeUsedAreNamed() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/fine.json", ScenarioText.empty(name: "Fine"))
        let scenarios = folder.url.appendingPathComponent("Scenarios")
        try FileManager.default.createSymbolicLink(
            atPath: scenarios.appendingPathComponent("gone.json").path, withDestinationPath: "missing.json")
        try FileManager.default.createSymbolicLink(atPath: scenarios.appendingPathComponent("up").path, withDestinationPath: "..")
        let result = try ScenarioBinary.run(["run"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Scenarios/gone.json is a link to missing.json, which does not exist"), "\(result.stderr)")
        #expect(result.stderr.contains("links back into a folder above it"), "\(result.stderr)")
    }

    @Test func failingScenarioExitsOneAndShowsWhatWentWrong() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/fails.json", ScenarioText.failing(name: "Fails"))
        let result = try ScenarioBinary.run(["run"], in: folder.url)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.stdout.contains("✗ fails"))
        #expect(result.stdout.contains("Failures:"))
        #expect(result.stdout.contains("Summary: 0 passed, 1 failed, 0 skipped"))
        // Whatever the runner reported, the console repeats it: the diff (or expected and
        // actual) of every failed check, or the error.
        let scenario = try #require(scenarios(try json(folder)).first)
        let steps = scenario["steps"] as? [[String: Any]] ?? []
        let failed = steps.flatMap { $0["assertions"] as? [[String: Any]] ?? [] }.filter { $0["passed"] as? Bool == false }
        for assertion in failed {
            for key in ["diff", "expected", "actual"] {
                guard let text = assertion[key] as? String else { continue }
                for line in text.split(separator: "\n") { #expect(result.stdout.contains(line), "missing \(key) line \(line)") }
            }
        }
        if scenario["status"] as? String == "error", let message = scenario["errorMessage"] as? String {
            #expect(result.stdout.contains(message.split(separator: "\n").first.map(String.init) ?? message))
        }
    }

    @Test func exitStatusAgreesWithTheReport() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/a.json", ScenarioText.empty(name: "A"))
        try folder.write("Scenarios/b/c.json", ScenarioText.empty(name: "C", tags: ["x"]))
        let result = try ScenarioBinary.run(["run"], in: folder.url)
        let statuses = scenarios(try json(folder)).compactMap { $0["status"] as? String }
        #expect(statuses.count == 2)
        let expected: Int32 = statuses.allSatisfy { $0 == "passed" || $0 == "skipped" } ? 0 : 1
        #expect(result.status == expected, "\(result.output)")
    }

    @Test(.enabled(if: !RepositoryPaths.scenarioFiles.isEmpty, "the repository has no scenarios yet"))
    func repositoryScenariosPass() throws {
        let folder = try TemporaryFolder()
        let result = try ScenarioBinary.run(
            ["run", RepositoryPaths.scenarios.path, "--junit", "j.xml", "--json", "r.json"], in: folder.url)
        #expect(result.status == 0, "\(result.output)")
        let summary = try JUnitStructure.check(try folder.read("j.xml"))
        #expect(summary.tests == RepositoryPaths.scenarioFiles.count)
        try JUnitStructure.validateIfPossible(try folder.read("j.xml"))
    }

    @Test func junitReportHasOneCasePerScenarioAndValidates() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/top.json", ScenarioText.empty(name: "Top <&> \"quoted\""))
        try folder.write("Scenarios/auth/login.json", ScenarioText.empty(name: "Login", tags: ["smoke"]))
        try folder.write("Scenarios/auth/refresh/coalesce.json", ScenarioText.failing(name: "Coalesce"))
        try folder.write("Scenarios/auth/refresh/same-name.json", ScenarioText.empty(name: "Coalesce"))
        try folder.write("Scenarios/broken/file.json", ScenarioText.broken)
        try folder.write("Scenarios/skipped.json", ScenarioText.empty(name: "Skipped", tags: ["slow"]))
        let result = try ScenarioBinary.run(["run", "--skip-tag", "slow"], in: folder.url)
        #expect(result.status == 2, "\(result.output)")
        let xml = try folder.read("Reports/junit.xml")
        let summary = try JUnitStructure.check(xml)
        #expect(summary.tests == 6)
        #expect(summary.skipped == 1)
        #expect(summary.errors >= 1)
        #expect(
            Set(summary.cases) == [
                "auth/Login", "auth.refresh/Coalesce [auth/refresh/coalesce]", "auth.refresh/Coalesce [auth/refresh/same-name]",
                "broken/broken/file", "Scenarios/Skipped", "Scenarios/Top <&> \"quoted\"",
            ])
        try JUnitStructure.validateIfPossible(xml)
    }

    @Test func defaultReportPathsAndNoReports() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/a.json", ScenarioText.empty(name: "A"))
        let quiet = try ScenarioBinary.run(["run", "--no-reports"], in: folder.url)
        #expect(quiet.status != 64)
        #expect(!folder.exists("Reports"))
        let result = try ScenarioBinary.run(["run"], in: folder.url)
        #expect(folder.exists("Reports/junit.xml"))
        #expect(folder.exists("Reports/results.json"))
        #expect(result.stdout.contains("Reports: Reports/junit.xml, Reports/results.json"))
        let moved = try ScenarioBinary.run(["run", "--junit", "out/deep/j.xml", "--json", "out/r.json"], in: folder.url)
        #expect(moved.status == result.status)
        #expect(folder.exists("out/deep/j.xml"))
        #expect(folder.exists("out/r.json"))
    }

    @Test func filterAndTagsReportTheRestAsSkipped() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/a.json", ScenarioText.empty(name: "Alpha", tags: ["smoke"]))
        try folder.write("Scenarios/b.json", ScenarioText.empty(name: "Beta", tags: ["slow"]))
        try folder.write("Scenarios/c.json", ScenarioText.empty(name: "Gamma"))
        let cases: [([String], Set<String>)] = [
            (["--filter", "^a$|Gam"], ["a", "c"]),
            (["--tag", "smoke", "--tag", "slow"], ["a", "b"]),
            (["--skip-tag", "slow"], ["a", "c"]),
            (["--tag", "smoke", "--skip-tag", "smoke"], []),
        ]
        for (flags, ran) in cases {
            let result = try ScenarioBinary.run(["run", "--verbose"] + flags, in: folder.url)
            #expect(result.status != 64, "\(flags): \(result.stderr)")
            let report = scenarios(try json(folder))
            #expect(report.count == 3, "filtered-out scenarios are still reported")
            let notSkipped = Set(report.filter { $0["status"] as? String != "skipped" }.compactMap { $0["id"] as? String })
            #expect(notSkipped == ran, "\(flags)")
            for id in Set(["a", "b", "c"]).subtracting(ran) { #expect(result.stdout.contains("- \(id) (skipped: "), "\(flags)") }
        }
    }

    @Test func shardsCoverEveryScenarioExactlyOnce() throws {
        let folder = try TemporaryFolder()
        let ids = (1...14).map { "topic-\($0 % 3)/scenario-\($0)" }
        for id in ids { try folder.write("Scenarios/\(id).json", ScenarioText.empty(name: "Name of \(id)")) }
        var seen: [String] = []
        var shardReports: [String] = []
        for index in 1...3 {
            let result = try ScenarioBinary.run(
                ["run", "--shard", "\(index)/3", "--json", "r\(index).json", "--junit", "j\(index).xml"], in: folder.url
            )
            #expect(result.status != 64 && result.status != 2, "\(result.output)")
            let mine = scenarios(try json(folder, "r\(index).json")).compactMap { $0["id"] as? String }
            // The split is the documented stable hash, so other tools can compute it too.
            #expect(mine == ids.sorted().filter { ScenarioSelection.Shard.shardIndex(of: $0, count: 3) == index })
            seen += mine
            shardReports.append("j\(index).xml")
        }
        #expect(seen.sorted() == ids.sorted())
        #expect(Set(seen).count == seen.count)

        let merged = try ScenarioBinary.run(["merge", "merged.xml"] + shardReports, in: folder.url)
        #expect(merged.status == 0, "\(merged.output)")
        #expect(merged.stdout.contains("Merged 3 reports into merged.xml: 14 tests"))
        let xml = try folder.read("merged.xml")
        let summary = try JUnitStructure.check(xml)
        #expect(summary.tests == ids.count)
        #expect(
            Set(summary.cases.map { $0.split(separator: "/", maxSplits: 1).last.map(String.init) ?? "" })
                == Set(ids.map { "Name of \($0)" }))
        try JUnitStructure.validateIfPossible(xml)
    }

    @Test func mergeProblemsExitTwo() throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.xml", "<testsuites><unclosed></testsuites>")
        let missing = try ScenarioBinary.run(["merge", "out.xml", "nope.xml"], in: folder.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read nope.xml"))
        let bad = try ScenarioBinary.run(["merge", "out.xml", "bad.xml"], in: folder.url)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("cannot merge bad.xml"))
        #expect(!folder.exists("out.xml"))
    }

    @Test func reportsContainNoSecrets() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "Scenarios/secrets.json",
            """
            {
              "name": "Secrets stay secret",
              "description": "Tokens from the file must not reach any report.",
              "given": { "session": { "accessToken": "tok-ACCESS-9f8e7d", "refreshToken": "tok-REFRESH-1a2b3c", "user": { "id": "u1" } } },
              "exchanges": [
                { "id": "login",
                  "request": { "method": "POST", "path": "/login", "json": { "password": "hunter2-PASSWORD" } },
                  "response": { "status": 200, "json": { "access_token": "tok-NEW-ACCESS-5x5", "refresh_token": "tok-NEW-REFRESH-6y6", "token": "tok-PLAIN-7z7" } } }
              ],
              "steps": [],
              "expect": { "requests": { "total": 1 } }
            }
            """)
        try folder.write("Scenarios/plain.json", ScenarioText.failing(name: "Plain"))
        var files = [folder.url.appendingPathComponent("Scenarios/secrets.json")]
        var arguments = ["run", "Scenarios"]
        if !RepositoryPaths.scenarioFiles.isEmpty {
            files += RepositoryPaths.scenarioFiles
            arguments.append(RepositoryPaths.scenarios.path)
        }
        let secrets = SecretScan.secrets(inFiles: files)
        #expect(secrets.isSuperset(of: ["tok-ACCESS-9f8e7d", "hunter2-PASSWORD", "tok-PLAIN-7z7"]))
        let result = try ScenarioBinary.run(arguments + ["--verbose"], in: folder.url, environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status != 64, "\(result.output)")
        for (name, text) in [
            ("junit.xml", try folder.read("Reports/junit.xml")), ("results.json", try folder.read("Reports/results.json")),
            ("stdout", result.stdout), ("stderr", result.stderr),
        ] {
            #expect(SecretScan.leaks(of: secrets, in: text).isEmpty, "\(name) leaks \(SecretScan.leaks(of: secrets, in: text))")
        }
    }

    @Test func gitHubAnnotationsOnlyOnGitHub() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/fails.json", ScenarioText.failing(name: "Fails"))
        try folder.write("Scenarios/broken.json", ScenarioText.broken)
        let plain = try ScenarioBinary.run(["run", "--no-reports"], in: folder.url)
        #expect(!plain.stdout.contains("::error"))
        let github = try ScenarioBinary.run(["run", "--no-reports"], in: folder.url, environment: ["GITHUB_ACTIONS": "true"])
        let annotations = github.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(annotations.count >= 2, "\(github.stdout)")
        #expect(annotations.contains { $0.hasPrefix("::error file=Scenarios/broken.json,line=3,col=") })
        #expect(annotations.contains { $0.contains("file=Scenarios/fails.json") })
    }

    @Test func noColoursWhenOutputIsNotATerminal() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/fails.json", ScenarioText.failing(name: "Fails"))
        let result = try ScenarioBinary.run(["run", "--no-reports"], in: folder.url)
        #expect(!result.output.contains("\u{1B}["))
    }

    @Test func failFastSkipsTheRest() throws {
        let folder = try TemporaryFolder()
        for name in ["a", "b", "c", "d"] { try folder.write("Scenarios/\(name).json", ScenarioText.failing(name: name.uppercased())) }
        let result = try ScenarioBinary.run(["run", "--fail-fast", "--jobs", "1"], in: folder.url)
        #expect(result.status == 1, "\(result.output)")
        let statuses = scenarios(try json(folder)).compactMap { $0["status"] as? String }
        #expect(statuses.count == 4)
        #expect(statuses.first != "skipped")
        #expect(statuses.dropFirst().allSatisfy { $0 == "skipped" })
        #expect(result.stdout.contains("Summary: 0 passed, 1 failed, 3 skipped"))
    }

    @Test func repeatingADeterministicScenarioChangesNothing() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/a.json", ScenarioText.failing(name: "A"))
        let once = try ScenarioBinary.run(["run", "--json", "once.json"], in: folder.url)
        let thrice = try ScenarioBinary.run(["run", "--repeat", "3", "--json", "thrice.json"], in: folder.url)
        #expect(once.status == thrice.status)
        #expect(!thrice.stdout.contains("nondeterministic"))
        let first = scenarios(try json(folder, "once.json")).first?["status"] as? String
        let repeated = scenarios(try json(folder, "thrice.json")).first?["status"] as? String
        #expect(first == repeated)
    }

    @Test func quietPrintsNoProgressLines() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/a.json", ScenarioText.empty(name: "A"))
        let result = try ScenarioBinary.run(["run", "--quiet", "--no-reports"], in: folder.url)
        #expect(!result.stdout.contains("✓ a"))
        #expect(result.stdout.contains("Summary:"))
    }
}

/// `run --shrink DIR`: every failing scenario gets a shrunk copy in DIR, named after its id, which
/// the console lists and the HTML page links; a passing one gets none.
@Suite("scenario run --shrink")
struct RunShrinkTests {
    static let failing = """
        {
          "name": "A block shows an alert the scenario says it must not",
          "description": "Fails: the alert list must be exact; the extra feed call is not needed for that.",
          "given": { "session": { "accessToken": "acc-shrink-1", "refreshToken": "ref-shrink-1", "user": { "id": "u1" } } },
          "exchanges": [
            { "id": "health", "request": { "path": "/health" }, "response": { "status": 200, "json": { "status": "ok" } } },
            { "id": "feed-403", "request": { "path": "/feed" }, "response": { "status": 403 } }
          ],
          "steps": [
            { "do": "request", "with": { "path": "/health" } },
            { "do": "request", "with": { "path": "/feed" } }
          ],
          "expect": { "alerts": [] }
        }
        """

    @Test func failingScenariosAreShrunkIntoTheFolderAndListed() throws {
        let folder = try TemporaryFolder()
        try folder.write("Scenarios/blocked/alert.json", Self.failing)
        try folder.write("Scenarios/fine.json", ScenarioText.empty(name: "Fine"))
        let result = try ScenarioBinary.run(
            ["run", "Scenarios", "--shrink", "Reports/shrunk", "--html", "Reports/run.html", "--jobs", "1"], in: folder.url)
        #expect(result.status == 1, "\(result.output)")
        #expect(
            result.stdout.contains(
                "Shrunk:\n  blocked/alert: Reports/shrunk/blocked/alert.json (2 steps, 2 exchanges -> 1 step, 1 exchange"),
            "\(result.stdout)")
        let shrunk = try folder.read("Reports/shrunk/blocked/alert.json")
        let value = try #require(JSONValue.parse(Data(shrunk.utf8)))
        #expect(value["steps"]?.arrayValue?.count == 1)
        #expect(value["exchanges"]?.arrayValue?.first?["id"]?.stringValue == "feed-403")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Reports/shrunk/fine.json").path))
        // The page links the copy relative to itself.
        let page = try folder.read("Reports/run.html")
        #expect(page.contains(#"shrunk copy: <a href="shrunk/blocked/alert.json">Reports/shrunk/blocked/alert.json</a>"#))
        // The copy loads and fails the same way.
        let again = try ScenarioBinary.run(["run", "Reports/shrunk", "--no-reports"], in: folder.url)
        #expect(again.status == 1)
        #expect(again.stdout.contains("alerts: expected 0 element(s), got 1 element(s)"), "\(again.stdout)")
    }
}
