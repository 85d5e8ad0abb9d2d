import Foundation
import Testing

/// Each command's `--help` lists the exit statuses that command has, in its own words, and the
/// ones it says it exits with are the ones it does.
@Suite struct CommandExitCodeHelpTests {
    static func codes(_ command: String) throws -> [String: String] {
        let folder = try TemporaryFolder()
        let help = try ScenarioBinary.run([command, "--help"], in: folder.url).stdout
        let section = try #require(help.components(separatedBy: "EXIT CODES:\n").last)
        var codes: [String: String] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("  ") {
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            if parts.count == 2 { codes[String(parts[0])] = String(parts[1]) }
        }
        return codes
    }

    @Test func verifyAndExportPactSayWhatTheirStatusesMean() throws {
        let verify = try Self.codes("verify")
        #expect(verify["1"]?.contains("a finding, or an exchange that could not be checked") == true, "\(verify)")
        #expect(verify["2"]?.contains("the document") == true && verify["64"] != nil)
        let pact = try Self.codes("export-pact")
        #expect(pact["1"]?.contains("--openapi refused an answer") == true, "\(pact)")
        // Each command its own: lint never fails a scenario, so it lists no 1.
        #expect(try Self.codes("lint")["1"] == nil)
        #expect(try Self.codes("shrink")["1"]?.contains("passes") == true)
    }

    @Test func exportPactExitsAsItsHelpSays() throws {
        let folder = try TemporaryFolder()
        let out = try ScenarioBinary.run(
            [
                "export-pact", RepositoryPaths.scenarios.path, "-o", "pacts", "--openapi",
                RepositoryPaths.scenarios.appendingPathComponent("openapi.yaml").path,
            ],
            in: folder.url)
        #expect(out.status == 0, "\(out.output.suffix(2000))")
        // A document that refuses an answer: the pact is written without it, and the status says so.
        let planted = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent("openapi.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "        status: { type: string }", with: "        status: { type: integer }")
        let document = folder.url.appendingPathComponent("planted.yaml")
        try planted.write(to: document, atomically: true, encoding: .utf8)
        let refused = try ScenarioBinary.run(
            ["export-pact", RepositoryPaths.scenarios.appendingPathComponent("startup").path, "-o", "pacts", "--openapi", document.path],
            in: folder.url)
        #expect(
            refused.status == 1 && refused.stdout.contains("the API document refuses its answer: body-refused $.status"),
            "\(refused.output.suffix(2000))")
    }
}
