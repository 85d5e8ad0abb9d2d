import Foundation
import Testing

/// Every command that reads a file named to it (a trace, a report, a scenario, a response body)
/// refuses a FIFO, a folder and a device at once with exit status 2, saying what the path is:
/// before, `import` of a FIFO waited for a writer for good and `import` of a link to `/dev/zero`
/// read until the memory ran out.
@Suite struct SpecialFileTests {
    /// Makes `name` in `folder` a FIFO, a folder or a link to a device; returns what the error says it is.
    static func makeSpecial(_ kind: String, named name: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path(name)
        switch kind {
        case "FIFO":
            #expect(mkfifo(path, 0o600) == 0)
            return "a FIFO"
        case "folder":
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return "a folder"
        default:
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
            return "a device"
        }
    }

    @Test(arguments: ["FIFO", "folder", "device"])
    func commandsRefuseWhatIsNotAFile(_ kind: String) throws {
        let folder = try TemporaryFolder()
        let what = try Self.makeSpecial(kind, named: "special", in: folder)
        let commands = [
            ["import", "special", "-o", "out.json"],
            ["redact", "special", "-o", "out.har"],
            ["merge", "out.xml", "special"],
        ]
        for command in commands {
            let result = try ScenarioBinary.run(command, in: folder.url, timeout: 60)
            #expect(result.status == 2, "\(command): \(result.output)")
            #expect(result.stderr == "error: cannot read special: it is \(what), not a file\n", "\(command)")
        }
        #expect(!folder.exists("out.json") && !folder.exists("out.har") && !folder.exists("out.xml"))
    }

    @Test(arguments: ["FIFO", "folder", "device"])
    func aResponseBodyFileThatIsNotAFileIsALoadIssue(_ kind: String) throws {
        let folder = try TemporaryFolder()
        let what = try Self.makeSpecial(kind, named: "body", in: folder)
        try folder.write(
            "s.json",
            #"""
            {
              "name": "special body", "description": "a response body read from a path that is not a file",
              "steps": [{ "do": "bootstrap" }],
              "exchanges": [{ "request": { "method": "GET", "path": "/health" }, "response": { "status": 200, "file": "body" } }]
            }
            """#)
        let result = try ScenarioBinary.run(["lint", "s.json"], in: folder.url, timeout: 60)
        #expect(result.status == 2, "\(result.output)")
        let resolved = folder.url.resolvingSymlinksInPath().path
        #expect(
            result.output.contains(
                "s.json:4:107: error: cannot read the 'file' \(resolved)/body: it is \(what), not a file (at $.exchanges[0].response.file) — name a regular file"
            ), "\(result.output)")
    }
}
