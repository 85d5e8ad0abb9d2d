import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioContracts
@testable import ScenarioEngine

/// The YAML reader: the forms API documents are written in, each read to the value its JSON form
/// has, and every malformed or hostile input refused at its line and column.
@Suite struct YAMLReaderTests {
    static func value(_ text: String, json: Bool = false) throws -> JSONValue {
        let tree = try json ? YAMLReader.readJSON(Array(text.utf8), file: "t") : YAMLReader.read(Array(text.utf8), file: "t.yaml")
        return tree.value(tree.root)
    }

    static func issue(_ text: String, json: Bool = false, limits: YAMLReader.Limits = YAMLReader.Limits()) -> LoadIssue? {
        do {
            _ =
                try json
                ? YAMLReader.readJSON(Array(text.utf8), file: "t", limits: limits)
                : YAMLReader.read(Array(text.utf8), file: "t.yaml", limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func blockMappingsAndSequencesNestAsTheirJSONForm() throws {
        let text = """
            openapi: 3.1.0
            info:
              title: Sessions   # a comment
              version: "1.0"
            tags:
            - name: auth
              description: Sign-in
            -   name: users
            servers:
              - url: https://api.example.com
                variables: {}
            empty:
            list:
            - - a
              - b
            - c
            """
        let expected: JSONValue = [
            "openapi": "3.1.0",
            "info": ["title": "Sessions", "version": "1.0"],
            "tags": [["name": "auth", "description": "Sign-in"], ["name": "users"]],
            "servers": [["url": "https://api.example.com", "variables": [:]]],
            "empty": nil,
            "list": [["a", "b"], "c"],
        ]
        #expect(try Self.value(text) == expected)
    }

    @Test func plainScalarsResolveByTheCoreSchemaAndKeysStayText() throws {
        let text = """
            200: ok
            n1: null
            n2: ~
            n3:
            b1: true
            b2: False
            i1: 42
            i2: -17
            i3: 0x1F
            i4: 0o17
            f1: 3.25
            f2: 1e3
            f3: .5
            f4: -.inf
            s1: 3.0.3
            s2: yes
            s3: 1_000
            s4: "42"
            s5: 'true'
            s6: !!str 42
            s7: !!int "7"
            s8: ! 12
            url: http://x:8080/a#b
            """
        let value = try Self.value(text)
        #expect(value["200"] == "ok")
        #expect(value["n1"] == .null && value["n2"] == .null && value["n3"] == .null)
        #expect(value["b1"] == true && value["b2"] == false)
        #expect(value["i1"] == 42 && value["i2"] == -17 && value["i3"] == 31 && value["i4"] == 15)
        #expect(value["f1"] == 3.25 && value["f2"] == 1000 && value["f3"] == 0.5 && value["f4"] == .number(-.infinity))
        // YAML 1.1's booleans and digit separators are strings in 1.2.
        #expect(value["s1"] == "3.0.3" && value["s2"] == "yes" && value["s3"] == "1_000")
        #expect(value["s4"] == "42" && value["s5"] == "true" && value["s6"] == "42" && value["s7"] == 7 && value["s8"] == "12")
        #expect(value["url"] == "http://x:8080/a#b")
    }

    @Test func quotedScalarsUnescapeAndFold() throws {
        let text = #"""
            single: 'it''s # not a comment'
            double: "tab\there \"q\" \u00e9 \x41 \U0001F600 \ud83d\ude00 \/"
            folded: "one
              two

              three"
            joined: "ab\
              cd"
            spaced: 'a  b  '
            """#
        let value = try Self.value(text)
        #expect(value["single"] == "it's # not a comment")
        #expect(value["double"] == "tab\there \"q\" é A 😀 😀 /")
        #expect(value["folded"] == "one two\nthree")
        #expect(value["joined"] == "abcd")
        #expect(value["spaced"] == "a  b  ")
    }

    @Test func multiLinePlainScalarsFold() throws {
        let text = """
            description: This goes
              on over lines

              and keeps a break
            - not: a key
            """
        // The last line is at the mapping's indentation and is not a key: refused, not folded in.
        #expect(Self.issue(text)?.location.line == 5)
        let value = try Self.value("description: This goes\n  on over lines\n\n  and keeps a break\nnext: 1\n")
        #expect(value["description"] == "This goes on over lines\nand keeps a break")
        #expect(value["next"] == 1)
    }

    @Test func literalAndFoldedBlockScalarsKeepOrFoldLinesAndChomp() throws {
        let text = """
            literal: |
              line one
                indented
              line three
            folded: >
              Sammy Sosa completed another
              fine season.

                63 Home Runs
                0.288 Batting Average

              What a year!
            strip: |-
              text

            clip: |
              text


            keep: |+
              text


            explicit: |2
                four spaces
            empty: >
            last: end
            """
        let value = try Self.value(text)
        #expect(value["literal"] == "line one\n  indented\nline three\n")
        #expect(
            value["folded"] == "Sammy Sosa completed another fine season.\n\n  63 Home Runs\n  0.288 Batting Average\n\nWhat a year!\n")
        #expect(value["strip"] == "text")
        #expect(value["clip"] == "text\n")
        #expect(value["keep"] == "text\n\n\n")
        #expect(value["explicit"] == "  four spaces\n")
        #expect(value["empty"] == "")
        #expect(value["last"] == "end")
    }

    @Test func foldedScalarKeepsLeadingEmptyLinesAndMoreIndentedBlocks() throws {
        let text = ">\n\n folded\n line\n\n next\n line\n   * bullet\n\n   * list\n   * lines\n\n last\n line\n\n# Comment\n"
        #expect(try Self.value(text) == "\nfolded line\nnext line\n  * bullet\n\n  * list\n  * lines\n\nlast line\n")
    }

    @Test func flowCollectionsSpanLinesWithComments() throws {
        let text = """
            a: {x: 1, "y": [true, 'two', {z: ~}], empty: []}
            b: [
              one,   # first
              two words,
              {k: v},
            ]
            c: {a, b: }
            """
        let value = try Self.value(text)
        #expect(value["a"] == ["x": 1, "y": [true, "two", ["z": nil]], "empty": []])
        #expect(value["b"] == ["one", "two words", ["k": "v"]])
        #expect(value["c"] == ["a": nil, "b": nil])
    }

    @Test func anchorsAndAliasesShareANode() throws {
        let text = """
            base: &error
              type: object
              required: [code]
            one: *error
            two: *error
            list: &l [1, 2]
            again: *l
            """
        let tree = try YAMLReader.read(Array(text.utf8), file: "t.yaml")
        let value = tree.value(tree.root)
        #expect(value["one"] == value["base"] && value["two"] == value["base"])
        #expect(value["again"] == [1, 2])
        // Shared, not copied: the alias is the anchored node itself.
        #expect(tree.member(tree.root, "one") == tree.member(tree.root, "base"))
    }

    @Test func jsonAndYAMLFormsOfOneDocumentGiveTheSameValue() throws {
        let yaml = """
            openapi: "3.0.3"
            paths:
              /users/{id}:
                get:
                  parameters:
                  - {name: id, in: path, required: true, schema: {type: string}}
                  responses:
                    "200":
                      description: |
                        The user.
                    default: {description: Anything else}
            x-number: 1.0
            """
        let json = """
            {"openapi":"3.0.3","paths":{"/users/{id}":{"get":{"parameters":[{"name":"id","in":"path","required":true,
            "schema":{"type":"string"}}],"responses":{"200":{"description":"The user.\\n"},"default":{"description":"Anything else"}}}}},
            "x-number": 1}
            """
        let fromYAML = try YAMLReader.read(Array(yaml.utf8), file: "a.yaml")
        let fromJSON = try YAMLReader.readJSON(Array(json.utf8), file: "a.json")
        #expect(DocumentTree.sameValue(fromYAML, fromYAML.root, fromJSON, fromJSON.root))
        #expect(fromYAML.value(fromYAML.root) == fromJSON.value(fromJSON.root))
        // And the JSON reading agrees with the scenario loader's own parser.
        #expect(try JSONTextParser(data: Data(json.utf8), file: "a.json").parseDocument().value == fromJSON.value(fromJSON.root))
        // One changed leaf is a different value.
        let changed = try YAMLReader.read(Array(yaml.replacingOccurrences(of: "type: string", with: "type: integer").utf8), file: "b.yaml")
        #expect(!DocumentTree.sameValue(changed, changed.root, fromJSON, fromJSON.root))
    }

    @Test func positionsAreLinesAndCharacterColumnsOfNodesAndKeys() throws {
        let text = "a:\n  é: [1, {b: x}]\n  c: |\n    text\n"
        let tree = try YAMLReader.read(Array(text.utf8), file: "t.yaml")
        let a = try #require(tree.member(tree.root, "a"))
        let entry = try #require(tree.memberEntry(a, "é"))
        #expect(tree.position(entry.key) == (2, 3))
        let list = try #require(tree.elements(entry.value))
        #expect(tree.position(list[1]) == (2, 10))
        #expect(tree.place(try #require(tree.member(list[1], "b"))) == "t.yaml:2:14")
        #expect(tree.position(try #require(tree.member(a, "c"))) == (3, 6))
    }

    @Test func flowCollectionsOverManyLinesKeepTheLineCount() throws {
        // A flow list's end is looked past for a ':' and stepped back from: its lines are counted once.
        let text = "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": [\n    3\n  ]\n}\n"
        #expect(try Self.value(text) == ["a": [1, 2], "b": [3]])
        let issue = try #require(Self.issue("a: [\n  1,\n  2\n]\nb: *nothing\n"))
        #expect(issue.location.line == 5 && issue.location.column == 4)
    }

    @Test func strictJSONRefusesWhatOnlyYAMLAllows() {
        #expect(Self.issue(#"{"a": 1,}"#, json: true)?.message.contains("trailing comma") == true)
        #expect(Self.issue("{\"a\": 1} # c", json: true) != nil)
        #expect(Self.issue("{'a': 1}", json: true) != nil)
        #expect(Self.issue(#"{"a": 01}"#, json: true)?.location.column == 7)
        #expect(Self.issue(#"{"a": "x\ty"}"#.replacingOccurrences(of: "\\t", with: "\t"), json: true) != nil)
        #expect(Self.issue(#"{"a": 1} {"b": 2}"#, json: true)?.description.contains("one value") == true)
        #expect(Self.issue(#"{"a" 1}"#, json: true)?.message.contains("':'") == true)
    }
}
