import Foundation
import Testing

/// `scenario verify` through the built binary: the corpus against the repository's document,
/// exit codes, the three reports (JUnit valid against the schema), masking, and usage errors.
@Suite struct VerifyCommandTests {
    static let document = RepositoryPaths.scenarios.appendingPathComponent("openapi.yaml")

    /// The repository's document with `old` replaced by `new`, written into `folder`.
    static func changedDocument(_ old: String, _ new: String, in folder: TemporaryFolder) throws -> String {
        let text = try String(contentsOf: document, encoding: .utf8)
        #expect(text.contains(old), "the document no longer holds \(old)")
        return try folder.write("openapi.yaml", text.replacingOccurrences(of: old, with: new))
    }

    @Test func theCorpusConformsToTheRepositoryDocumentWithReports() throws {
        let folder = try TemporaryFolder()
        let run = try ScenarioBinary.run(
            ["verify", RepositoryPaths.scenarios.path, "--openapi", Self.document.path, "--junit", "verify.xml", "--json", "verify.json"],
            in: folder.url)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.stdout.contains("0 with 0 findings, 0 could not be checked"))
        let junit = try folder.read("verify.xml")
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == RepositoryPaths.scenarioFiles.count)
        #expect(!junit.contains("<failure"))
        if let schema = RepositoryPaths.junitSchema {
            #expect(try XMLLint.problems(validating: folder.path("verify.xml"), against: schema) == nil)
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(folder.read("verify.json").utf8)) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["findings"] as? Int == 0 && summary["scenarios"] as? Int == RepositoryPaths.scenarioFiles.count)
        #expect((summary["skipped"] as? Int ?? 0) > 0)
    }

    @Test func findingsExitOneAtTheirPlacesInEveryReportWithSecretsMasked() throws {
        let folder = try TemporaryFolder()
        // The backend now says tokens are numbers: every scripted token is a finding that quotes it.
        let changed = try Self.changedDocument(
            "access_token: { type: string, minLength: 1 }", "access_token: { type: integer }", in: folder)
        let login = RepositoryPaths.scenarios.appendingPathComponent("session/login-success.json").path
        let arguments = ["verify", login, "--openapi", changed, "--junit", "v.xml", "--json", "v.json"]
        let run = try ScenarioBinary.run(arguments, in: folder.url)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.stdout.contains("login-success.json:16:"))
        #expect(run.stdout.contains("body-refused $.data.access_token: expected an integer, got a string \"‹redacted#"))
        #expect(run.stdout.contains("openapi.yaml:"))
        let reports = try folder.read("v.xml") + folder.read("v.json")
        #expect(reports.contains("<failure message=\"1 finding\" type=\"ContractFinding\">"))
        if let schema = RepositoryPaths.junitSchema {
            #expect(try XMLLint.problems(validating: folder.path("v.xml"), against: schema) == nil)
        }
        for output in [run.stdout, reports] { #expect(!output.contains("acc-login-yn1")) }
        let shown = try ScenarioBinary.run(arguments + ["--show-secrets"], in: folder.url)
        #expect(shown.stdout.contains("acc-login-yn1"))
    }

    @Test func whatCouldNotBeCheckedExitsOneUnlessAllowed() throws {
        let folder = try TemporaryFolder()
        let changed = try Self.changedDocument(
            "    Health:\n      type: object\n", "    Health:\n      type: object\n      patternProperties: {}\n", in: folder)
        let scriptsNothing = RepositoryPaths.scenarios.appendingPathComponent("blocking/cannot-block-self.json").path
        let strict = try ScenarioBinary.run(
            ["verify", RepositoryPaths.scenarios.appendingPathComponent("health").path, "--openapi", changed, "--junit", "v.xml"],
            in: folder.url)
        #expect(strict.status == 1, "\(strict.output)")
        #expect(strict.stdout.contains("could not check") && strict.stdout.contains("'patternProperties'"))
        #expect(try folder.read("v.xml").contains("<skipped message=\"could not check: "))
        let allowed = try ScenarioBinary.run(
            ["verify", RepositoryPaths.scenarios.appendingPathComponent("health").path, "--openapi", changed, "--allow-unchecked"],
            in: folder.url)
        #expect(allowed.status == 0, "\(allowed.output)")
        // A scenario that scripts nothing checks nothing: not a pass.
        let nothing = try ScenarioBinary.run(["verify", scriptsNothing, "--openapi", Self.document.path], in: folder.url)
        #expect(nothing.status == 2 && nothing.stderr.contains("no exchange was checked"), "\(nothing.output)")
    }

    @Test func aDocumentThatCannotBeReadExitsTwoAtItsPlace() throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.yaml", "openapi: 3.1.0\npaths:\n\t/x: {}\n")
        let bad = try ScenarioBinary.run(["verify", RepositoryPaths.scenarios.path, "--openapi", "bad.yaml"], in: folder.url)
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("bad.yaml:3:1: error: a tab indents this line"), "\(bad.output)")
        try folder.write("swagger.json", #"{"swagger": "2.0", "paths": {}}"#)
        let swagger = try ScenarioBinary.run(["verify", RepositoryPaths.scenarios.path, "--openapi", "swagger.json"], in: folder.url)
        #expect(swagger.status == 2 && swagger.stderr.contains("Swagger 2.0"))
        let missing = try ScenarioBinary.run(["verify", RepositoryPaths.scenarios.path, "--openapi", "none.yaml"], in: folder.url)
        #expect(missing.status == 2 && missing.stderr.contains("none.yaml:1:1: error: cannot read the file"))
        try folder.write("broken.json", "{")
        let brokenScenario = try ScenarioBinary.run(
            ["verify", folder.path("broken.json"), "--openapi", Self.document.path], in: folder.url)
        #expect(brokenScenario.status == 2 && brokenScenario.stdout.contains("broken.json:1:2: error"), "\(brokenScenario.output)")
    }

    @Test func usageErrorsExitSixtyFourWithAHint() throws {
        let folder = try TemporaryFolder()
        let neither = try ScenarioBinary.run(["verify", "Scenarios"], in: folder.url)
        #expect(neither.status == 64 && neither.stderr.contains("needs --openapi DOC or --trace FILE.har"))
        let both = try ScenarioBinary.run(["verify", "--openapi", "a.yaml", "--trace", "t.har"], in: folder.url)
        #expect(both.status == 64 && both.stderr.contains("cannot be used together"))
        let typo = try ScenarioBinary.run(["verify", "--openap", "a.yaml"], in: folder.url)
        #expect(typo.status == 64 && typo.stderr.contains("did you mean '--openapi'?"))
        let command = try ScenarioBinary.run(["verfy"], in: folder.url)
        #expect(command.status == 64 && command.stderr.contains("did you mean 'verify'?"))
        let help = try ScenarioBinary.run(["verify", "--help"], in: folder.url)
        #expect(help.status == 0 && help.stdout.contains("USAGE: scenario verify [paths...] (--openapi DOC | --trace FILE.har...)"))
        #expect(try ScenarioBinary.run(["--help"], in: folder.url).stdout.contains("verify [paths...]"))
    }

    @Test func capturesAreComparedAndUncoveredRoutesAreNotPassed() throws {
        let folder = try TemporaryFolder()
        let traces = RepositoryPaths.root.appendingPathComponent("Tests/Fixtures/traces")
        let scenarios = RepositoryPaths.scenarios.appendingPathComponent("startup").path
        let run = try ScenarioBinary.run(
            [
                "verify", scenarios, "--trace", traces.appendingPathComponent("mitmproxy/inactive-user-at-startup.har").path, "--json",
                "t.json",
            ], in: folder.url)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.stdout.contains("status-never-captured: expected a status the capture of this route shows (200), got 503"))
        #expect(run.stdout.contains("could not check"))
        let json = try folder.read("t.json")
        #expect(json.contains("\"kind\" : \"status-never-captured\"") || json.contains("\"kind\": \"status-never-captured\""))
        let broken = try ScenarioBinary.run(["verify", scenarios, "--trace", "nothing.har"], in: folder.url)
        #expect(broken.status == 2)
    }
}
