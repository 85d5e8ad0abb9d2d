import Foundation
import Testing

@testable import ScenarioEngine

/// The one document tree as the JSON parser builds it: every node placed as read, a streamed
/// element a tree of its own, a value not read from a file placed where its holder is, and a
/// tree that keeps its source finding places from offsets.
@Suite struct DocumentTreeTests {
    @Test func aParsedDocumentIsOneTreeWithEveryNodePlaced() throws {
        let text = "{\n  \"name\": \"é\",\n  \"list\": [1, {\"k\": null}]\n}"
        let root = try JSONTextParser(data: Data(text.utf8), file: "t.json").parseDocument()
        let tree = root.tree
        // The object, two keys, a string, the array, 1, the inner object, its key and null.
        #expect(tree.nodeCount == 9)
        #expect(root.node == tree.root && tree.kind(tree.root) == .object)
        let list = try #require(root.member("list"))
        #expect(list.value.tree === tree)
        #expect(tree.position(list.keyNode) == (3, 3) && (list.keyLine, list.keyColumn) == (3, 3))
        let inner = try #require(list.value.elements?.last)
        #expect(tree.place(inner.node) == "t.json:3:15")
        #expect(tree.string(try #require(tree.member(tree.root, "name"))) == "é")
        #expect(tree.isString(try #require(root.member("name")).keyNode, "name"))
        #expect(inner.member("k")?.value.kind == .null && inner["k"]?.column == 21)
        #expect(root.value == ["name": "é", "list": [1, ["k": nil]]])
    }

    @Test func membersAndElementsAreViewsOfTheTree() throws {
        let root = try JSONTextParser(data: Data(#"{"a": [true, "x", 2], "b": {}}"#.utf8), file: "t.json").parseDocument()
        let members = try #require(root.members)
        #expect(members.map(\.key) == ["a", "b"] && members.count == 2)
        let elements = try #require(members[0].value.elements)
        #expect(elements.map(\.kind) == [.bool, .string, .number])
        #expect(elements[1].stringValue == "x" && elements[2].numberValue == 2)
        #expect(members[1].value.members?.isEmpty == true && members[1].value.elements == nil)
        // A scalar has neither; `?? []` reads as none.
        #expect((elements[0].members ?? []).isEmpty && (elements[0].elements ?? []).isEmpty)
        #expect(elements.map(\.value) == [true, "x", 2], "an array's elements list its values")
    }

    @Test func aStreamedElementIsATreeOfItsOwnPlacedInTheWholeFile() throws {
        let text = "{\"head\": 1,\n \"items\": [\n  {\"a\": \"x\"},\n  {\"a\": [\"yy\", 2]}\n], \"tail\": true}"
        let trees = TreeBox()
        let root = try JSONTextParser.parse(bytes: Array(text.utf8), file: "s.json", streaming: ["items"]) { node, index in
            trees.nodes.append((node, index))
        }
        #expect(trees.nodes.map(\.1) == [0, 1])
        let (first, second) = (trees.nodes[0].0, trees.nodes[1].0)
        #expect(first.tree !== root.tree && first.tree !== second.tree)
        // Each holds its element only, at its line and column in the whole file.
        #expect(first.tree.nodeCount == 3 && second.tree.nodeCount == 5)
        #expect((first.line, first.column) == (3, 3) && (second.line, second.column) == (4, 3))
        let inner = try #require(second["a"]?.elements)
        #expect(inner.map { [$0.line, $0.column] } == [[4, 10], [4, 16]])
        #expect(second.value == ["a": ["yy", 2]])
        // The document's tree keeps the streamed array empty, and the rest as written.
        #expect(root["items"]?.elements?.isEmpty == true && root["items"]?.line == 2)
        #expect(root["tail"]?.value == true && root.tree.nodeCount == 7)
    }

    @Test func aValueNotReadFromAFileIsPlacedWhereItsHolderIs() throws {
        let node = JSONNode(value: ["age": 12, "tags": ["a", nil]], line: 7, column: 3)
        #expect(node.value == ["age": 12, "tags": ["a", nil]])
        let members = try #require(node.members)
        #expect(members.map(\.key) == ["age", "tags"])
        #expect(members.allSatisfy { ($0.keyLine, $0.keyColumn, $0.value.line, $0.value.column) == (7, 3, 7, 3) })
        #expect(node["tags"]?.elements?.map(\.kind) == [.string, .null])
    }

    @Test func aTreeThatKeepsItsSourceFindsPlacesFromOffsets() throws {
        // "k: é\r\nv: [x]" built by hand, as the YAML reader builds: strings left in the source.
        let source = Array("k: é\r\nv: [x]".utf8)
        var builder = DocumentTree.Builder()
        let first = builder.openCount
        builder.addChild(builder.addString(in: 0..<1, at: 0))
        builder.addChild(builder.addString(in: 3..<5, at: 3))
        builder.addChild(builder.addString(in: 7..<8, at: 7))
        let listFirst = builder.openCount
        builder.addChild(builder.addString(in: 11..<12, at: 11))
        builder.addChild(builder.close(.array, from: listFirst, at: 10))
        #expect(builder.openChildren(from: first).count == 4)
        let root = builder.close(.object, from: first, at: 0)
        let tree = builder.finish(file: "h.yaml", root: root, source: source, lineStarts: [0, 7])
        #expect(builder.count == 0)
        let node = JSONNode(tree: tree)
        #expect(node.value == ["k": "é", "v": ["x"]])
        #expect(node["v"].map { [$0.line, $0.column] } == [2, 4])
        #expect(node["v"]?.elements?.first.map { [$0.line, $0.column] } == [2, 5])
        let entry = try #require(tree.memberEntry(root, "v"))
        #expect(tree.position(entry.key) == (2, 1))
    }
}

/// The elements a streaming parse handed over.
private final class TreeBox: @unchecked Sendable {
    var nodes: [(JSONNode, Int)] = []
}
