import Foundation
import ScenarioEngine
import ScenarioTraces

/// A node in one of the files an API document is made of.
package struct DocumentNode: Hashable, Sendable {
    /// The file, as an index into ``OpenAPIDocument/files``.
    package var file: Int
    /// The node in that file's tree.
    package var node: DocumentTree.Node

    package init(file: Int, node: DocumentTree.Node) {
        self.file = file
        self.node = node
    }
}

/// An OpenAPI 3.0 or 3.1 document, JSON or YAML, with the files its relative `$ref`s name: every
/// `$ref` resolved when it is loaded (one that leads nowhere or loops is an error at its place),
/// and its operations indexed by method and path template.
package struct OpenAPIDocument: Sendable {
    /// The root file first, then every file a `$ref` named, in the order met.
    package private(set) var files: [DocumentTree] = []
    /// `3.0.3`, `3.1.0`, ...
    package private(set) var version = ""
    /// Where each `$ref` leads: from the object holding it to its target (itself not a `$ref`).
    package private(set) var references: [DocumentNode: DocumentNode] = [:]
    /// The operations, in document order.
    package internal(set) var operations: [OpenAPIOperation] = []
    /// Path prefixes the `servers` give (`/v1` of `https://api.example.com/v1`).
    package internal(set) var serverPrefixes: [String] = []

    /// Whether the document is OpenAPI 3.1 (JSON Schema 2020-12 type arrays and `const`).
    package var isVersion31: Bool { version.hasPrefix("3.1") }

    /// The root file's tree.
    package var root: DocumentNode { DocumentNode(file: 0, node: files[0].root) }

    /// Reads the document at `path` and every file its `$ref`s name.
    package static func load(path: String, limits: YAMLReader.Limits = YAMLReader.Limits()) throws(LoadIssue) -> OpenAPIDocument {
        var document = OpenAPIDocument()
        var loader = ReferenceLoader(limits: limits)
        let rootTree = try loader.tree(at: path)
        document.files = [rootTree]
        try document.checkVersion()
        document.version = document.member(document.root, "openapi").flatMap(document.string) ?? ""
        document.references = try loader.resolveAll(startingWith: rootTree)
        document.files = loader.trees
        try document.checkLoops()
        try document.indexOperations()
        return document
    }

    // MARK: Reading nodes

    /// The tree of `node`'s file.
    package func tree(_ node: DocumentNode) -> DocumentTree { files[node.file] }

    /// Follows `node`'s `$ref`, if it has one.
    package func resolved(_ node: DocumentNode) -> DocumentNode { references[node] ?? node }

    /// The value of member `key` of `node`.
    package func member(_ node: DocumentNode, _ key: String) -> DocumentNode? {
        files[node.file].member(node.node, key).map { DocumentNode(file: node.file, node: $0) }
    }

    /// The key node and value node of member `key`.
    package func memberEntry(_ node: DocumentNode, _ key: String) -> (key: DocumentNode, value: DocumentNode)? {
        files[node.file].memberEntry(node.node, key).map {
            (DocumentNode(file: node.file, node: $0.key), DocumentNode(file: node.file, node: $0.value))
        }
    }

    /// The members of `node` with their keys as text.
    package func members(_ node: DocumentNode) -> [(key: String, keyNode: DocumentNode, value: DocumentNode)] {
        let tree = files[node.file]
        return (tree.members(node.node) ?? []).map {
            (tree.string($0.key) ?? "", DocumentNode(file: node.file, node: $0.key), DocumentNode(file: node.file, node: $0.value))
        }
    }

    /// The elements of `node`, when it is an array.
    package func elements(_ node: DocumentNode) -> [DocumentNode]? {
        files[node.file].elements(node.node)?.map { DocumentNode(file: node.file, node: $0) }
    }

    package func string(_ node: DocumentNode) -> String? { files[node.file].string(node.node) }
    package func bool(_ node: DocumentNode) -> Bool? { files[node.file].bool(node.node) }
    package func number(_ node: DocumentNode) -> Double? { files[node.file].number(node.node) }
    package func kind(_ node: DocumentNode) -> DocumentTree.Kind { files[node.file].kind(node.node) }
    package func value(_ node: DocumentNode) -> JSONValue { files[node.file].value(node.node) }

    /// `file:line:column` of `node`.
    package func place(_ node: DocumentNode) -> DocumentPlace {
        let tree = files[node.file]
        let (line, column) = tree.position(node.node)
        return DocumentPlace(file: tree.file, line: line, column: column)
    }

    func issue(_ node: DocumentNode, _ message: String, hint: String? = nil) -> LoadIssue {
        let place = place(node)
        return LoadIssue(
            location: ScenarioLocation(file: place.file, line: place.line, column: place.column, path: ""), message: message, hint: hint)
    }

    // MARK: Loading

    private func checkVersion() throws(LoadIssue) {
        let root = self.root
        guard kind(root) == .object else {
            throw issue(
                root, "not an OpenAPI document: the top is \(kind(root)), not a mapping",
                hint: "verify takes an OpenAPI 3.0 or 3.1 document")
        }
        if member(root, "swagger") != nil {
            throw issue(root, "this is a Swagger 2.0 document; verify reads OpenAPI 3.0 and 3.1", hint: "convert it to OpenAPI 3")
        }
        guard let versionNode = member(root, "openapi"), let text = string(versionNode) else {
            throw issue(
                root, "not an OpenAPI document: there is no 'openapi' version at the top",
                hint: "verify takes an OpenAPI 3.0 or 3.1 document")
        }
        guard text.hasPrefix("3.0") || text.hasPrefix("3.1") else {
            throw issue(versionNode, "OpenAPI \(text) is not read here; verify reads OpenAPI 3.0 and 3.1")
        }
        if let paths = member(root, "paths") {
            guard kind(paths) == .object else { throw issue(paths, "'paths' must be a mapping of path templates") }
        } else if !text.hasPrefix("3.1") {
            throw issue(root, "the document has no 'paths' mapping, which OpenAPI \(text) requires")
        } else if member(root, "webhooks") == nil, member(root, "components") == nil {
            // 3.1 makes `paths` optional but asks for one of these three.
            throw issue(root, "an OpenAPI 3.1 document needs at least one of 'paths', 'webhooks' or 'components'")
        }
    }
}

/// A place in a document file.
package struct DocumentPlace: Hashable, Sendable, Codable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int

    package var description: String { "\(file):\(line):\(column)" }
}
