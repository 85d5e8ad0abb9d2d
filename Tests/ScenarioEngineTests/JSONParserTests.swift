import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

@Suite struct JSONParserTests {
    private func parse(_ text: String, file: String = "t.json") throws(LoadIssue) -> JSONNode {
        try JSONTextParser(data: Data(text.utf8), file: file).parseDocument()
    }

    @Test func valuesKeepOrderAndTypes() throws {
        let node = try parse(#"{"b": [1, -2.5e2, true, false, null], "a": {"x": "y"}, "c": ""}"#)
        #expect(node.value.objectValue?.keys == ["b", "a", "c"])
        #expect(node.value["b"] == [1, -250, true, false, nil])
        #expect(node.value["a"] == ["x": "y"])
        #expect(node.value["c"] == "")
    }

    @Test func positionsOfValuesAndKeys() throws {
        let text = "{\n  \"first\": 1,\n  \"é\": [true,\n     \"x\"],\n\t\"last\": {\"k\": null}\n}"
        let root = try parse(text)
        #expect((root.line, root.column) == (1, 1))
        let members = try #require(root.members)
        #expect(members.map(\.key) == ["first", "é", "last"])
        #expect(members.map { [$0.keyLine, $0.keyColumn] } == [[2, 3], [3, 3], [5, 2]])
        #expect((members[0].value.line, members[0].value.column) == (2, 12))
        // Columns count characters: "é" is two bytes but one column.
        #expect((members[1].value.line, members[1].value.column) == (3, 8))
        let elements = try #require(members[1].value.elements)
        #expect(elements.map { [$0.line, $0.column] } == [[3, 9], [4, 6]])
        let inner = try #require(root["last"]?.member("k"))
        #expect([inner.keyLine, inner.keyColumn, inner.value.line, inner.value.column] == [5, 11, 5, 16] as [Int])
    }

    @Test func crlfLineEndingsCountOnce() throws {
        let root = try parse("{\r\n\"a\":\r\n 1}")
        let member = try #require(root.member("a"))
        #expect([member.keyLine, member.keyColumn, member.value.line, member.value.column] == [2, 1, 3, 2] as [Int])
    }

    @Test(arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""\u0041\u00e9\u20AC""#, "Aé€"),
        (#""\uD83D\uDE00 ok""#, "😀 ok"),
        (#""plain é 😀""#, "plain é 😀"),
    ])
    func stringEscapes(text: String, expected: String) throws {
        #expect(try parse(text).value == .string(expected))
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", 0.0), ("12", 12), ("-3.25", -3.25), ("1e3", 1000), ("2E-2", 0.02), ("1.5e+2", 150),
    ])
    func numbers(text: String, expected: Double) throws {
        #expect(try parse(text).value == .number(expected))
    }

    struct SyntaxCase: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int
        var column: Int
        var path: String
        var message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        SyntaxCase(text: "", line: 1, column: 1, path: "$", message: "the file is empty; expected a JSON value"),
        SyntaxCase(
            text: "{\"a\": 1 \"b\": 2}", line: 1, column: 9, path: "$",
            message: "expected ',' or '}' after object member; add a comma between members or close the object"),
        SyntaxCase(
            text: "[1 2]", line: 1, column: 4, path: "$",
            message: "expected ',' or ']' after array element; add a comma between elements or close the array"),
        SyntaxCase(text: "{\"a\": [1,\n  2,]}", line: 2, column: 5, path: "$.a", message: "trailing comma before ']'; remove the comma"),
        SyntaxCase(text: "{\"a\": 1,}", line: 1, column: 9, path: "$", message: "trailing comma before '}'; remove the comma"),
        SyntaxCase(
            text: "{\n  \"a\": \"abc\n}", line: 2, column: 8, path: "$.a",
            message: "unterminated string; add the closing '\"' (a string cannot span lines; write \\n for a line break)"),
        SyntaxCase(
            text: "\"abc", line: 1, column: 1, path: "$",
            message: "the file ends inside this string; add the closing '\"', or save or export the file whole"),
        SyntaxCase(text: "{\"a\" 1}", line: 1, column: 6, path: "$", message: "expected ':' after object key 'a'"),
        SyntaxCase(text: "{a: 1}", line: 1, column: 2, path: "$", message: "expected a key in double quotes; got 'a'"),
        SyntaxCase(
            text: "{\"x\": {\"a\": 1, \"a\": 2}}", line: 1, column: 16, path: "$.x",
            message: "duplicate key 'a' (first written at line 1, column 8); keep one"),
        SyntaxCase(
            text: "[tru]", line: 1, column: 2, path: "$[0]",
            message: "invalid literal; expected a value such as true, false, null, a number or a string"),
        SyntaxCase(
            text: "[nulls]", line: 1, column: 2, path: "$[0]",
            message: "invalid literal; expected a value such as true, false, null, a number or a string"),
        SyntaxCase(text: "01", line: 1, column: 1, path: "$", message: "numbers cannot have leading zeros"),
        SyntaxCase(text: "-", line: 1, column: 2, path: "$", message: "expected a digit after '-'"),
        SyntaxCase(text: "1.", line: 1, column: 3, path: "$", message: "expected a digit after the decimal point"),
        SyntaxCase(text: "1e", line: 1, column: 3, path: "$", message: "expected a digit in the exponent"),
        SyntaxCase(text: "1e999", line: 1, column: 1, path: "$", message: "number 1e999 is too large"),
        SyntaxCase(
            text: "{} x", line: 1, column: 4, path: "$",
            message: "unexpected 'x' after the JSON value; a file holds exactly one value"),
        SyntaxCase(text: "['a']", line: 1, column: 2, path: "$[0]", message: "strings must use double quotes, not single quotes"),
        SyntaxCase(text: "// c\n{}", line: 1, column: 1, path: "$", message: "comments are not allowed in JSON"),
        SyntaxCase(
            text: "\"a\\qb\"", line: 1, column: 3, path: "$",
            message: "invalid escape '\\q'; use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"),
        SyntaxCase(text: "\"\\u12G4\"", line: 1, column: 2, path: "$", message: "\\u must be followed by four hex digits"),
        SyntaxCase(
            text: "\"\\uD83D\"", line: 1, column: 2, path: "$",
            message: "unpaired high surrogate in \\u escape; follow it with a low surrogate (\\uDC00-\\uDFFF)"),
        SyntaxCase(text: "\"\\uDE00\"", line: 1, column: 2, path: "$", message: "unpaired low surrogate in \\u escape"),
        SyntaxCase(
            text: "\"a\tb\"", line: 1, column: 3, path: "$", message: "control character byte 0x09 in string; escape it (\\t, \\u00XX)"),
        SyntaxCase(text: "{\"é\": [1, @]}", line: 1, column: 11, path: "$[\"é\"][1]", message: "unexpected '@'; expected a value"),
        SyntaxCase(
            text: "[1,", line: 1, column: 4, path: "$[1]", message: "the file ends early; expected a value: save or export it whole"),
    ])
    func syntaxErrors(_ c: SyntaxCase) {
        #expect {
            _ = try parse(c.text)
        } throws: { error in
            guard let issue = error as? LoadIssue else { return false }
            #expect(issue.message == c.message)
            #expect([issue.location.line, issue.location.column] == [c.line, c.column] as [Int])
            #expect(issue.location.path == c.path)
            #expect(issue.location.file == "t.json")
            return true
        }
    }

    @Test func invalidUTF8InAStringIsAnIssue() {
        let bytes: [UInt8] = [0x22, 0x61, 0xC3, 0x28, 0x22]
        #expect(throws: LoadIssue.self) { try JSONTextParser(data: Data(bytes), file: "t").parseDocument() }
    }

    /// Strings are checked byte by byte: what is not UTF-8 (a stray continuation byte, an
    /// overlong form, a surrogate, a value past U+10FFFF, a cut sequence) is an issue, with or
    /// without escapes in the same string; every well-formed length is text.
    @Test(
        arguments: [
            [0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
            [0xE2, 0x82], [0xF0, 0x9F, 0x98],
        ] as [[UInt8]])
    func malformedUTF8IsAnIssue(_ sequence: [UInt8]) throws {
        for prefix in [[0x61], Array(#"\n"#.utf8)] as [[UInt8]] {
            let bytes = [0x22] + prefix + sequence + [0x22]
            #expect(throws: LoadIssue.self) { try JSONTextParser(data: Data(bytes), file: "t").parseDocument() }
        }
        let text = "ä€😀\u{10FFFF}\u{E000}"
        #expect(try parse("\"\(text)\"").value == .string(text))
        #expect(try parse("\"\\t\(text)\"").value == .string("\t" + text))
    }

    /// A duplicate key is found however many keys come before it, and the issue says where
    /// the first one is.
    @Test(arguments: [3, 15, 16, 40])
    func duplicateKeysAreFoundInObjectsOfAnySize(keys: Int) throws {
        let members = (0..<keys).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(try parse("{\(members)}").members?.count == keys)
        #expect {
            _ = try parse("{\(members), \"k1\": 0}")
        } throws: { error in
            (error as? LoadIssue)?.message == "duplicate key 'k1' (first written at line 1, column 11); keep one"
        }
    }

    /// Short integers are read without text; they and the longer ones are the numbers written.
    @Test func integersOfAnyLengthAreExact() throws {
        let numbers = try parse("[123456789012345, -12345678901234, 1234567890123456, 0, -0]").value
        #expect(numbers == [123_456_789_012_345, -12_345_678_901_234, 1_234_567_890_123_456, 0, 0])
        #expect(try parse("-0").value.numberValue?.sign == .minus)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let node = try JSONTextParser(data: Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)), file: "t").parseDocument()
        #expect(node.value == [1])
        #expect(node.column == 1)
    }

    /// UTF-16 and UTF-32 files, with a byte-order mark or without, are named as such, so the
    /// error says what to do instead of pointing at an unexpected byte.
    @Test(arguments: [
        ("utf-16le", "UTF-16"), ("utf-16be", "UTF-16"), ("utf-16", "UTF-16"),
        ("utf-32le", "UTF-32"), ("utf-32be", "UTF-32"), ("utf-32", "UTF-32"),
    ])
    func wideEncodingsAreNamed(_ codec: String, _ name: String) throws {
        let encoded = try #require(Self.encode(#"{"name": "x"}"#, codec))
        #expect {
            _ = try JSONTextParser(data: encoded, file: "t.json").parseDocument()
        } throws: { error in
            (error as? LoadIssue)?.message == "the file is \(name); JSON files are read as UTF-8: save it as UTF-8"
        }
    }

    private static func encode(_ text: String, _ codec: String) -> Data? {
        switch codec {
        case "utf-16le": text.data(using: .utf16LittleEndian)
        case "utf-16be": text.data(using: .utf16BigEndian)
        case "utf-16": text.data(using: .utf16)  // with a byte-order mark
        case "utf-32le": text.data(using: .utf32LittleEndian)
        case "utf-32be": text.data(using: .utf32BigEndian)
        default: text.data(using: .utf32)
        }
    }

    @Test func nestingIsLimited() throws {
        let ok = String(repeating: "[", count: JSONTextParser.maximumDepth) + String(repeating: "]", count: JSONTextParser.maximumDepth)
        #expect(try parse(ok).line == 1)
        let deep = String(repeating: "[", count: 100_000)
        #expect {
            _ = try parse(deep)
        } throws: { error in
            // Its path, 512 levels long, is shown by its ends.
            guard let issue = error as? LoadIssue else { return false }
            return issue.message == "arrays and objects nest deeper than 512 levels" && issue.location.path.count > 1_500
                && issue.description.count < 400 && issue.description.contains("[0]…[0]")
        }
    }

    @Test func issueDescriptionHasFileLineColumnAndPath() {
        let issue = LoadIssue(
            location: ScenarioLocation(file: "s.json", line: 3, column: 7, path: "$.exchanges[0].tiems"),
            message: "unknown key 'tiems' in exchange", hint: "did you mean 'times'?")
        #expect(issue.description == "s.json:3:7: error: unknown key 'tiems' in exchange (at $.exchanges[0].tiems) — did you mean 'times'?")
        let failure = LoadFailure(file: "s.json", issues: [issue, issue])
        #expect(failure.description == issue.description + "\n" + issue.description)
    }

    /// Random and mutated inputs never crash the parser; they parse or throw a located issue.
    @Test func fuzzedInputNeverCrashes() {
        var generator = SplitMix64(seed: 0x5EED)
        let seeds = [LoaderFixtures.fullScenario, #"{"a": [1, 2.5e-3, "\u00e9\uD83D\uDE00", {"b": null}], "c": true}"#]
        let alphabet = Array(#"{}[]":,.-+eE0123456789tfnulrsa\ "#.utf8) + [0x00, 0x0A, 0x0D, 0x80, 0xC3, 0xED, 0xF0, 0xFF]
        for round in 0..<3000 {
            var bytes: [UInt8]
            if round % 3 == 0 {
                bytes = (0..<Int(generator.next() % 64)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            } else {
                bytes = Array(seeds[round % 2].utf8)
                for _ in 0..<(1 + Int(generator.next() % 4)) where !bytes.isEmpty {
                    let index = Int(generator.next() % UInt64(bytes.count))
                    switch generator.next() % 3 {
                    case 0: bytes[index] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: index)
                    }
                }
            }
            do {
                _ = try JSONTextParser(data: Data(bytes), file: "fuzz").parseDocument()
            } catch {
                #expect(error.location.line >= 1 && error.location.column >= 1)
                #expect(!error.message.isEmpty)
            }
            // The loader must not crash either, whatever the parser made of it.
            _ = LoaderFixtures.loader.load(data: Data(bytes), file: "/nonexistent/fuzz.json", id: "fuzz")
        }
    }
}

/// `{}` in an expectation means "empty", so it can fail.
@Suite struct EmptyObjectExpectationTests {
    @Test func anEmptyObjectMatchesOnlyAnEmptyObject() {
        #expect(
            JSONMatch.mismatches(expected: ["preferences": .object(JSONObject())], actual: ["preferences": .object(JSONObject())]).isEmpty)
        let left = JSONMatch.mismatches(expected: ["preferences": .object(JSONObject())], actual: ["preferences": ["theme": "dark"]])
        #expect(left.count == 1)
        #expect(left.first?.path == ".preferences")
        #expect(left.first?.actual.contains("theme") == true)
    }
}
