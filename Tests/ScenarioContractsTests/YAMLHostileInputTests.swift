import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine

/// Malformed and hostile YAML and JSON: each refused with a message at its line and column, and
/// none of it crashes, hangs or fills the memory.
@Suite struct YAMLHostileInputTests {
    static func issue(_ text: String, json: Bool = false, limits: YAMLReader.Limits = YAMLReader.Limits()) -> LoadIssue? {
        YAMLReaderTests.issue(text, json: json, limits: limits)
    }

    @Test func tabsForIndentationAreRefusedWhereTheyStand() throws {
        let issue = try #require(Self.issue("paths:\n\t/feed: {}\n"))
        #expect(issue.location.line == 2 && issue.location.column == 1)
        #expect(issue.message.contains("tab"))
        #expect(issue.description.hasPrefix("t.yaml:2:1: error:"))
        // A tab after the content, or inside a scalar, is just a blank.
        #expect(Self.issue("a:\tb\nc: 'x\ty'\n") == nil)
    }

    @Test func anAliasToNothingNamesTheAlias() throws {
        let issue = try #require(Self.issue("a: &one 1\nb: *two\n"))
        #expect(issue.location.line == 2 && issue.location.column == 4)
        #expect(issue.message.contains("'*two'"))
        // An anchor is only defined once its node is whole: a node cannot contain itself.
        #expect(Self.issue("a: &self [*self]\n")?.message.contains("no anchor") == true)
    }

    @Test func aBillionLaughsIsRefusedAtTheAliasThatOverflows() throws {
        var text = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for level in 1...9 {
            let previous = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(level - 1)))
            let name = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(level)))
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
        }
        let issue = try #require(Self.issue(text))
        #expect(issue.message.contains("billion laughs"))
        #expect(issue.location.line > 1)
    }

    @Test func deepNestingIsRefusedBeforeTheStackRunsOut() throws {
        let depth = 10_000
        let flow = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(Self.issue(flow)?.message.contains("deeper than 256") == true)
        #expect(Self.issue(flow, json: true)?.message.contains("deeper than 256") == true)
        // Block nesting costs its indentation in bytes: 1,000 levels are half a megabyte.
        var block = ""
        for level in 0..<1_000 { block += String(repeating: " ", count: level) + "k:\n" }
        let issue = try #require(Self.issue(block))
        #expect(issue.message.contains("deeper than 256"))
        #expect(issue.location.line == 257)
        var sequence = ""
        for level in 0..<1_000 { sequence += String(repeating: " ", count: 2 * level) + "-\n" }
        #expect(Self.issue(sequence)?.message.contains("deeper than 256") == true)
    }

    @Test func aDocumentOverTheSizeBoundIsRefusedBeforeItIsRead() throws {
        var limits = YAMLReader.Limits()
        limits.maximumBytes = 1000
        let issue = try #require(Self.issue(String(repeating: "a: 1\n", count: 300), limits: limits))
        #expect(issue.message.contains("more than the 1000"))
        #expect(issue.location.line == 1 && issue.location.column == 1)
        // A file is refused before its bytes are loaded.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yaml-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.yaml")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        #expect(throws: LoadIssue.self) { try YAMLReader.read(contentsOf: file.path) }
        do {
            _ = try YAMLReader.read(contentsOf: file.path)
        } catch {
            #expect(error.description.contains("big.yaml:1:1: error: the file has 104857600 bytes, more than the 64 MiB"))
        }
    }

    @Test func malformedDocumentsAreRefusedAtTheirPlace() throws {
        let cases: [(text: String, line: Int, column: Int, says: String)] = [
            ("a: 1\na: 2\n", 2, 1, "given twice"),
            ("a: 'open\n", 1, 4, "not closed"),
            ("a: [1, 2\n", 1, 4, "not closed"),
            ("a: {b: 1\n", 1, 4, "not closed"),
            ("a: 1\n---\nb: 2\n", 2, 1, "second document"),
            ("? a\nb: 1\n", 1, 1, "needs its ': value'"),
            ("? [a]\n: b\n", 1, 3, "explicit key"),
            ("a: b: c\n", 1, 4, "line of its key"),
            ("a: - b\n", 1, 4, "line of its key"),
            ("a:\n  b: 1\n    c: 2\n", 3, 6, "plain value"),
            ("a: 1\n  b: 2\n", 2, 4, "plain value"),
            ("a: 1\n- b\n", 2, 1, "'- ' entry"),
            ("- a\nb: 1\n", 2, 1, "not part of the document"),
            ("a: !custom x\n", 1, 4, "tag"),
            ("a: @x\n", 1, 4, "cannot start"),
            ("a: \"\\q\"\n", 1, 5, "not an escape"),
            ("[a: b]\n", 1, 3, "inside [ ]"),
            ("a: |0\n  x\n", 1, 5, "1 to 9"),
            ("a: 1\n\u{01}\n", 2, 1, "control character"),
            ("%TAG ! tag:x\n---\na: 1\n", 1, 1, "directive"),
            ("{a: 1}: b\n", 1, 7, "as a mapping key"),
            ("a: !!int x\n", 1, 10, "!!int"),
        ]
        for (text, line, column, says) in cases {
            let issue = try #require(Self.issue(text), "accepted: \(text)")
            #expect(issue.location.line == line && issue.location.column == column, "\(text): \(issue)")
            #expect(issue.message.contains(says), "\(text): \(issue)")
        }
    }

    @Test func bytesThatAreNotUTF8TextAreRefused() throws {
        let cases: [(bytes: [UInt8], column: Int, says: String)] = [
            ([0xFF, 0xFE, 0x61, 0x00], 1, "UTF-16"),
            (Array("a: ".utf8) + [0xC3, 0x28], 4, "not UTF-8"),
            (Array("a: ".utf8) + [0xED, 0xA0, 0x80], 4, "not UTF-8"),
            (Array("a: b".utf8) + [0x00], 5, "U+0000"),
        ]
        for (bytes, column, says) in cases {
            do {
                _ = try YAMLReader.read(bytes, file: "t.yaml")
                Issue.record("accepted \(bytes)")
            } catch {
                #expect(error.location.column == column && error.message.contains(says), "\(error)")
            }
        }
        // A byte-order mark in front of UTF-8 is fine.
        #expect(try YAMLReader.read([0xEF, 0xBB, 0xBF] + Array("a: 1".utf8), file: "t.yaml").nodeCount == 3)
    }

    @Test func issuesNameTheJSONPathBeingRead() throws {
        let issue = try #require(Self.issue("paths:\n  /feed:\n    get:\n      responses: [1, *nope]\n"))
        #expect(issue.location.path == #"$.paths["/feed"].get.responses[1]"#)
    }

    @Test func seededRandomBytesAreReadOrRefusedInsideTheInput() {
        // A fixed linear congruential sequence: the same inputs on every run.
        var state: UInt64 = 0x5DEECE66D
        let alphabet = Array("ab: -[]{},&*!|>'\"#\n\t ?%@`\\0x.e".utf8)
        for _ in 0..<3_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 58)
            var bytes: [UInt8] = []
            for _ in 0..<length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            let lines = bytes.filter { $0 == 0x0A }.count + 1
            for json in [false, true] {
                do {
                    _ = json ? try YAMLReader.readJSON(bytes, file: "f") : try YAMLReader.read(bytes, file: "f")
                } catch {
                    #expect(error.location.line >= 1 && error.location.line <= lines && error.location.column >= 1, "\(error)")
                }
            }
        }
    }
}
