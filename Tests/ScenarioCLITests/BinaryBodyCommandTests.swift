import Foundation
import ScenarioKit
import Testing

/// Canaries that stand only inside answers that are not text (a MessagePack login answer, a
/// protobuf feed, bytes of no known format), as three real tools captured them
/// (`Tests/Fixtures/traces/*/binary-answers.har`: Chromium writes them as base64, mitmproxy as
/// ISO 8859-1 text, requests-har as text or not at all): no form of any survives `scenario
/// redact`, `import` or `export`, every body keeps its length, a body the commands could not read
/// is said to be kept, and `--drop-unreadable-bodies` leaves it out.
@Suite struct BinaryBodyCommandTests {
    static let traces = RepositoryPaths.root.appendingPathComponent("Tests/Fixtures/traces")
    static let tools = ["chromium", "mitmproxy", "requests-har"]

    /// `scripts/traces/backend.py`'s canaries: each stands only inside a binary answer.
    static let canaries = [
        "acc-bin-Wq83Lz0Pd5Kx2Ms7Nf4Rt9Vb1Hy6Jc3", "ref-bin-Tg62Yh5Qk0Zx", "ses-bin-Pl47Ow2Ik9Uj6Yh3Tg8Rf5Ed1W",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LWJpbiJ9.YmluYXJ5LWp3dC1zaWduYXR1cmUtUTcy", "opq-bin-Vc58Bn3Mx1Za",
    ]

    static func capture(_ tool: String) -> String { traces.appendingPathComponent("\(tool)/binary-answers.har").path }

    /// Every canary that some form of is in `text` or in the bytes of a body of the trace `har`.
    static func leaks(in text: String, har: String? = nil) throws -> [String] {
        var found = CanaryForms.leaks(of: canaries, in: text).map(\.canary)
        if let har {
            for entry in try HARReader(file: "t.har").read(Data(har.utf8)).entries {
                for body in [entry.response?.body ?? Data(), Data((entry.request.body ?? "").utf8)] {
                    found += canaries.filter { body.range(of: Data($0.utf8)) != nil }
                }
            }
        }
        return found
    }

    @Test(arguments: tools) func theCapturesHoldTheCanaries(_ tool: String) throws {
        // What the commands must mask is there to begin with.
        let text = try String(contentsOfFile: Self.capture(tool), encoding: .utf8)
        let read = try HARReader(file: "t.har").read(Data(text.utf8))
        let bodies = read.entries.compactMap { $0.response?.body }
        #expect(
            Self.canaries.filter { canary in bodies.contains { $0.range(of: Data(canary.utf8)) != nil } }.count
                >= (tool == "requests-har" ? 2 : 5))
    }

    /// mitmproxy wrote the MessagePack and the unknown bytes as ISO 8859-1 text: read back, they are
    /// the bytes Chromium's base64 holds.
    @Test func mitmproxysTextBodiesReadAsTheBytesSent() throws {
        func bodies(_ tool: String) throws -> [String: Data] {
            let log = try HARReader(file: "t.har").read(Data(try String(contentsOfFile: Self.capture(tool), encoding: .utf8).utf8))
            return Dictionary(
                log.entries.compactMap { entry in
                    URLComponents(string: entry.request.url).map { ($0.path, entry.response?.body ?? Data()) }
                }
            ) { first, _ in first }
        }
        let chromium = try bodies("chromium")
        let mitmproxy = try bodies("mitmproxy")
        for path in ["/binary/login", "/binary/feed", "/binary/blob"] { #expect(mitmproxy[path] == chromium[path], "\(path)") }
        #expect(BinaryBodyReader.read(Array(mitmproxy["/binary/login"] ?? Data()), contentType: "application/x-msgpack") != nil)
    }

    @Test(arguments: tools) func redactLeavesNoCanaryAndKeepsEveryBodysLength(_ tool: String) throws {
        let folder = try TemporaryFolder()
        let redacted = try ScenarioBinary.run(["redact", Self.capture(tool), "-o", "shared.har"], in: folder.url)
        #expect(redacted.status == 0, "\(redacted.output)")
        let shared = try folder.read("shared.har")
        #expect(try Self.leaks(in: shared + redacted.output, har: shared) == [])
        let before = try HARReader(file: "t.har").read(Data(try String(contentsOfFile: Self.capture(tool), encoding: .utf8).utf8))
        let after = try HARReader(file: "shared.har").read(Data(shared.utf8))
        #expect(after.entries.map { $0.response?.body.count } == before.entries.map { $0.response?.body.count })
        // The MessagePack and protobuf answers still read as such.
        for entry in after.entries {
            guard let response = entry.response,
                BinaryBodyReader.read(
                    Array(before.entries.first { $0.request.url == entry.request.url }?.response?.body ?? Data()),
                    contentType: response.mimeType) != nil
            else { continue }
            #expect(BinaryBodyReader.read(Array(response.body), contentType: response.mimeType) != nil, "\(entry.request.url)")
        }
        if tool != "requests-har" {
            // requests-har wrote the bytes it could not decode as nothing: there is no unread body to speak of.
            #expect(redacted.stdout.contains("kept 1 binary body it could not read (1 application/octet-stream)"), "\(redacted.output)")
            #expect(redacted.stdout.contains("--drop-unreadable-bodies leaves such bodies out"))
        }
    }

    @Test func dropUnreadableBodiesLeavesOutWhatCouldNotBeRead() throws {
        let folder = try TemporaryFolder()
        let dropped = try ScenarioBinary.run(
            ["redact", Self.capture("chromium"), "-o", "lean.har", "--drop-unreadable-bodies"], in: folder.url)
        #expect(dropped.status == 0, "\(dropped.output)")
        #expect(dropped.stdout.contains("left out 1 binary body it could not read (1 application/octet-stream)"), "\(dropped.output)")
        #expect(!dropped.stdout.contains("kept 1 binary body"))
        let lean = try HARReader(file: "lean.har").read(Data(try folder.read("lean.har").utf8))
        #expect(lean.entries.map { URLComponents(string: $0.request.url)?.path } == ["/", "/binary/login", "/binary/feed", "/binary/blob"])
        #expect(lean.entries.map { $0.response?.body.isEmpty } == [false, false, false, true])
        let both = try ScenarioBinary.run(
            ["import", Self.capture("chromium"), "--drop-unreadable-bodies", "--keep-secrets"], in: folder.url)
        #expect(both.status == 64, "\(both.output)")
    }

    @Test(arguments: tools) func importLeavesNoCanary(_ tool: String) throws {
        let folder = try TemporaryFolder()
        let imported = try ScenarioBinary.run(["import", Self.capture(tool), "-o", "imported.json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.output)")
        let scenario = try folder.read("imported.json")
        var text = scenario + imported.output
        // Answers that are not text travel as base64: their bytes too.
        for answer in (JSONValue.parse(Data(scenario.utf8))?["exchanges"]?.arrayValue ?? []).compactMap({
            $0["response"]?["base64"]?.stringValue
        }) {
            text += String(decoding: Data(base64Encoded: answer) ?? Data(), as: UTF8.self)
        }
        #expect(try Self.leaks(in: text) == [])
        #expect(try ScenarioBinary.run(["lint", "imported.json"], in: folder.url).status == 0)
        if tool != "requests-har" { #expect(imported.stdout.contains("kept 1 binary body it could not read"), "\(imported.output)") }
    }

    /// A scenario serving the answers Chromium captured: its export is redacted the same way.
    @Test func exportLeavesNoCanary() throws {
        let folder = try TemporaryFolder()
        let captured = try HARReader(file: "t.har").read(Data(try String(contentsOfFile: Self.capture("chromium"), encoding: .utf8).utf8))
        let answers = captured.entries.filter { $0.request.url.contains("/binary/") }.compactMap { entry -> String? in
            guard let response = entry.response, let path = URLComponents(string: entry.request.url)?.path else { return nil }
            return
                #"{ "request": { "method": "GET", "path": "\#(path)" }, "response": { "status": 200, "headers": { "Content-Type": "\#(response.mimeType ?? "")" }, "base64": "\#(response.body.base64EncodedString())" } }"#
        }
        #expect(answers.count == 3)
        let steps = ["/binary/login", "/binary/feed", "/binary/blob"].map { #"{ "do": "request", "with": { "path": "\#($0)" } }"# }
        try folder.write(
            "binary.json",
            #"{ "name": "Binary answers", "description": "The answers a capture shows", "given": { "session": { "accessToken": "acc-given-1", "refreshToken": "ref-given-1" } }, "exchanges": [\#(answers.joined(separator: ", "))], "steps": [\#(steps.joined(separator: ", "))] }"#
        )
        let export = try ScenarioBinary.run(["export", "binary.json", "-o", "run.har"], in: folder.url)
        #expect(folder.exists("run.har"), "\(export.output)")
        #expect(export.stdout.contains("kept 1 binary body it could not read (1 application/octet-stream)"), "\(export.output)")
        let har = try folder.read("run.har")
        #expect(try Self.leaks(in: har + export.output, har: har) == [])
        let kept = try HARReader(file: "run.har").read(Data(har.utf8))
        #expect(kept.entries.map { $0.response?.body.count } == captured.entries.dropFirst().map { $0.response?.body.count })
        let lean = try ScenarioBinary.run(["export", "binary.json", "-o", "lean.har", "--drop-unreadable-bodies"], in: folder.url)
        #expect(lean.stdout.contains("left out 1 binary body"), "\(lean.output)")
    }
}
