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

    /// A command's output named as a FIFO (or a device such as `/dev/stdout`) is written into it,
    /// not replaced by a file; a link to a file still leads to the new file; a folder is refused.
    @Test func outputsGoThroughFIFOsAndLinksAndRefuseFolders() throws {
        let folder = try TemporaryFolder()
        let trace = Self.traces.appendingPathComponent("handmade/charles-concurrent-403s.har").path
        let fifo = folder.path("out.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that is already there, so the command's open for writing does not wait.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let imported = try ScenarioBinary.run(["import", trace, "-o", "out.json"], in: folder.url, timeout: 60)
        #expect(imported.status == 0, "\(imported.output)")
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "out.json is no longer a FIFO")
        var received = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(reader, &received, received.count)
        #expect(
            String(decoding: received.prefix(max(count, 0)), as: UTF8.self).contains(
                #""name": "Imported from charles-concurrent-403s.har""#))

        try folder.write("real.json", "{}")
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.json"), withDestinationPath: "real.json")
        let linked = try ScenarioBinary.run(["import", trace, "-o", "link.json"], in: folder.url, timeout: 60)
        #expect(linked.status == 0, "\(linked.output)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.json")) == "real.json")
        #expect(try folder.read("real.json").contains("Imported from charles-concurrent-403s.har"))

        try FileManager.default.createDirectory(atPath: folder.path("reports"), withIntermediateDirectories: true)
        try folder.write("in.xml", #"<testsuites><testsuite name="s" tests="1"><testcase name="c"/></testsuite></testsuites>"#)
        for command in [["import", trace, "-o", "reports"], ["merge", "reports", "in.xml"]] {
            let result = try ScenarioBinary.run(command, in: folder.url, timeout: 60)
            #expect(result.status == 2, "\(command): \(result.output)")
            #expect(result.stderr == "error: cannot write reports: it is a folder; name a file\n", "\(command)")
        }
    }

    static let traces = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/traces")
}
