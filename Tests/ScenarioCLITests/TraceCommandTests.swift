import Foundation
import Testing

/// `scenario import`, `redact` and `export` through the built binary: exit codes, where text
/// goes, and that no secret of a capture reaches any output.
@Suite struct TraceCommandTests {
    static let traces = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/traces")
    static let repository = traces.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let mitmSecrets = [
        "hunter2-Secret!", "mitm-cookie-77AA", "rt-mitm-Hh55",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEwMCIsImV4cCI6MX0.c2lnbmF0dXJlLW9sZC10b2tlbg",
    ]

    @Test func importWritesALintCleanScenarioAndPrintsCountsNotSecrets() throws {
        let folder = try TemporaryFolder()
        let trace = Self.traces.appendingPathComponent("handmade/mitmproxy-login-then-feed.har").path
        let toStdout = try ScenarioBinary.run(["import", trace], in: folder.url)
        #expect(toStdout.status == 0)
        #expect(toStdout.stdout.hasPrefix("{"))
        #expect(toStdout.stderr.contains("redacted 4 secrets: 1 cookie, 2 token, 1 password"))
        let toFile = try ScenarioBinary.run(["import", trace, "-o", "imported.json", "--name", "Login then feed"], in: folder.url)
        #expect(toFile.status == 0)
        #expect(toFile.stdout.hasPrefix("Wrote imported.json."))
        let lint = try ScenarioBinary.run(["lint", "imported.json"], in: folder.url)
        #expect(lint.status == 0, "\(lint.output)")
        let run = try ScenarioBinary.run(["run", "imported.json", "--no-reports"], in: folder.url)
        #expect(run.status == 0, "\(run.output)")
        let everything = toStdout.output + toFile.output + (try folder.read("imported.json")) + run.output
        for secret in Self.mitmSecrets { #expect(!everything.contains(secret), "\(secret) leaked") }
        // Only when asked.
        let kept = try ScenarioBinary.run(["import", trace, "--keep-secrets"], in: folder.url)
        #expect(kept.stdout.contains("hunter2-Secret!"))
    }

    @Test func redactWritesATraceWithoutSecretsThatStillImports() throws {
        let folder = try TemporaryFolder()
        let trace = Self.traces.appendingPathComponent("handmade/mitmproxy-login-then-feed.har").path
        let result = try ScenarioBinary.run(["redact", trace, "-o", "shared.har"], in: folder.url)
        #expect(result.status == 0)
        let shared = try folder.read("shared.har")
        for secret in Self.mitmSecrets { #expect(!shared.contains(secret), "\(secret) left in the shared trace") }
        #expect(shared.contains("redacted-password-1"))
        let imported = try ScenarioBinary.run(["import", "shared.har", "-o", "s.json"], in: folder.url)
        #expect(imported.status == 0)
        #expect(try ScenarioBinary.run(["run", "s.json", "--no-reports"], in: folder.url).status == 0)
    }

    @Test(arguments: [
        ("{\"log\":{\"entries\":[{\"request\":", "t.har:1:"),
        ("", "the file is empty"),
        ("{\"log\":{\"entries\":\"none\"}}", "t.har:1:19: error: expected an array of entries, found a string (at $.log.entries)"),
        ("{\"log\":{\"entries\":[" + String(repeating: "[", count: 5000), "nest deeper than"),
    ])
    func aBrokenTraceExitsWith2AndSaysWhere(_ text: String, _ expected: String) throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("t.har", text)
        for command in [["import", "t.har"], ["redact", "t.har", "-o", "out.har"]] {
            let result = try ScenarioBinary.run(command, in: folder.url)
            #expect(result.status == 2)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            // One "error:", where the place is (it once read "error: t.har:1:19: error: ...").
            #expect(result.stderr.components(separatedBy: "error:").count - 1 == 1, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(!folder.exists("out.har"))
    }

    /// A trace that cannot give a scenario that loads fails at its entry and writes nothing.
    @Test(arguments: [
        (
            #"{"log":{"entries":[{"request":{"method":"POST","url":"https://h/x","postData":{"text":"\#(String(repeating: "[", count: 506))\#(String(repeating: "]", count: 506))"}},"response":{"status":200}}]}}"#,
            "t.har:1:20: error: the request body nests 506 levels deep"
        ),
        (
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://h/x.png"},"response":{"status":200}}]}}"#,
            "t.har:1:1: error: no entries left to import (left out: 1 static assets"
        ),
    ])
    func anImportThatCannotLoadSaysWhichEntryAndWritesNothing(_ text: String, _ expected: String) throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("t.har", text)
        let result = try ScenarioBinary.run(["import", "t.har", "-o", "out.json"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(expected), "\(result.stderr)")
        #expect(result.stderr.contains("(at $.log.entries"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "error:").count - 1 == 1, "\(result.stderr)")
        #expect(!folder.exists("out.json"))
    }

    @Test func exportWritesTheRunAsHARThatImportsBack() throws {
        let folder = try TemporaryFolder()
        let scenario = Self.repository.appendingPathComponent("Scenarios/blocked-user/concurrent-403s-log-out-once.json").path
        let export = try ScenarioBinary.run(["export", scenario, "-o", "run.har"], in: folder.url)
        #expect(export.status == 0, "\(export.output)")
        #expect(export.stdout.contains("Wrote run.har: 10 entries; the scenario passed"))
        let har = try folder.read("run.har")
        #expect(!har.contains("acc-blocked-1"))
        let imported = try ScenarioBinary.run(["import", "run.har", "-o", "back.json"], in: folder.url)
        #expect(imported.status == 0)
        #expect(try ScenarioBinary.run(["run", "back.json", "--no-reports"], in: folder.url).status == 0)
    }

    /// A run that sends nothing is no trace `import` would take, so none is written.
    @Test func exportOfARunThatSentNothingWritesNoFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("quiet.json", ScenarioText.empty(name: "Quiet", extra: #""expect": { "requests": { "total": 0 } }"#))
        let export = try ScenarioBinary.run(["export", "quiet.json", "-o", "run.har"], in: folder.url)
        #expect(export.status == 2, "\(export.output)")
        #expect(export.stderr.contains("sent no requests"))
        #expect(!folder.exists("run.har"))
    }
}
