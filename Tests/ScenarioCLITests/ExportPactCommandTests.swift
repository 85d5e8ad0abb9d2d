import Foundation
import Testing

/// `scenario export-pact` through the built binary: one file per consumer-provider pair, what was
/// left out listed, secrets replaced, and nothing written from a broken input.
@Suite struct ExportPactCommandTests {
    @Test func theCorpusBecomesOnePactFileWithoutItsSecrets() throws {
        let folder = try TemporaryFolder()
        let run = try ScenarioBinary.run(
            ["export-pact", RepositoryPaths.scenarios.path, "-o", "pacts", "--consumer", "iOS app"], in: folder.url)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.stdout.contains("Wrote pacts/iOS_app-backend.json: "))
        #expect(run.stdout.contains("left out exchange 'forgot-timeout': a scripted fault"))
        let text = try folder.read("pacts/iOS_app-backend.json")
        let pact = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((pact["consumer"] as? [String: Any])?["name"] as? String == "iOS app")
        #expect(((pact["metadata"] as? [String: Any])?["pactSpecification"] as? [String: Any])?["version"] as? String == "4.0")
        let secrets = SecretScan.secrets(inFiles: RepositoryPaths.scenarioFiles).filter { $0.count >= 4 }
        #expect(!secrets.isEmpty)
        // Bytes, not characters: a search per secret through the whole file.
        let bytes = Data(text.utf8)
        for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) leaked") }
        let kept = try ScenarioBinary.run(["export-pact", RepositoryPaths.scenarios.path, "-o", "kept", "--keep-secrets"], in: folder.url)
        #expect(kept.status == 0 && kept.stdout.contains("Wrote kept/SessionKit-backend.json"))
        #expect(try folder.read("kept/SessionKit-backend.json").contains("acc-login-yn1"))
    }

    @Test func brokenInputWritesNothingAndUsageErrorsSayWhat() throws {
        let folder = try TemporaryFolder()
        try folder.write("broken.json", "{")
        let broken = try ScenarioBinary.run(["export-pact", "broken.json", "-o", "out"], in: folder.url)
        #expect(broken.status == 2 && broken.stderr.contains("nothing written") && !folder.exists("out"), "\(broken.output)")
        let noOutput = try ScenarioBinary.run(["export-pact", "Scenarios"], in: folder.url)
        #expect(noOutput.status == 64 && noOutput.stderr.contains("needs -o DIR"))
        let blank = try ScenarioBinary.run(["export-pact", "-o", "x", "--provider", " "], in: folder.url)
        #expect(blank.status == 64 && blank.stderr.contains("a name is needed"))
        let typo = try ScenarioBinary.run(["export-pakt"], in: folder.url)
        #expect(typo.status == 64 && typo.stderr.contains("did you mean 'export-pact'?"))
        try folder.write(
            "faults.json",
            #"{ "name": "f", "description": "d", "exchanges": [{ "request": { "method": "GET", "path": "/feed" }, "fault": "timedOut" }], "steps": [], "expect": { "requests": { "total": 0 } }, "relax": { "unusedExchanges": true } }"#
        )
        let nothing = try ScenarioBinary.run(["export-pact", "faults.json", "-o", "out"], in: folder.url)
        #expect(nothing.status == 2 && nothing.stderr.contains("no exchange could be exported"), "\(nothing.output)")
    }
}
