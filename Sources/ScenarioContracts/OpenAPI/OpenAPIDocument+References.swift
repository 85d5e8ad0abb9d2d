import Foundation
import ScenarioEngine

/// Loads the files `$ref`s name and resolves every `$ref` once: a file that cannot be read, a
/// pointer that leads nowhere, a remote URL or a chain of `$ref`s that loops is an error at the
/// `$ref` that says so.
struct ReferenceLoader {
    let limits: YAMLReader.Limits
    /// The most files one document may be made of.
    static let maximumFiles = 1_000
    private(set) var trees: [DocumentTree] = []
    private var indexByPath: [String: Int] = [:]
    /// Member indexes of the large objects pointers walk through (`components/schemas`).
    private var memberIndexes: [DocumentNode: [String: DocumentTree.Node]] = [:]
    /// Members that hold literal data, not document structure: a `$ref` in them is data.
    private static let literalKeys: Set<String> = ["example", "default", "const", "enum"]

    init(limits: YAMLReader.Limits) { self.limits = limits }

    /// Reads the root file.
    mutating func tree(at path: String) throws(LoadIssue) -> DocumentTree {
        let tree = try YAMLReader.read(contentsOf: path, limits: limits)
        trees = [tree]
        indexByPath[Self.standardized(path)] = 0
        return tree
    }

    /// Every `$ref` of the root file and of the files they name, from its holder to its final target.
    mutating func resolveAll(startingWith root: DocumentTree) throws(LoadIssue) -> [DocumentNode: DocumentNode] {
        var direct: [DocumentNode: DocumentNode] = [:]
        var file = 0
        while file < trees.count {
            var visited: Set<DocumentTree.Node> = []
            var holders: [(holder: DocumentTree.Node, reference: DocumentTree.Node)] = []
            Self.collectReferences(in: trees[file], trees[file].root, visited: &visited, into: &holders)
            for (holder, reference) in holders {
                direct[DocumentNode(file: file, node: holder)] = try target(of: DocumentNode(file: file, node: reference))
            }
            file += 1
        }
        // Chains (a `$ref` to a `$ref`) end at the first node that is not one; a chain that comes
        // back is a loop.
        var resolved: [DocumentNode: DocumentNode] = [:]
        for holder in direct.keys.sorted(by: { ($0.file, $0.node) < ($1.file, $1.node) }) {
            var chain = [holder]
            var current = direct[holder] ?? holder
            while let next = direct[current] {
                if chain.contains(current) {
                    let steps = (chain + [current]).map { trees[$0.file].place($0.node) }
                    throw issue(at: holder, "this $ref loops back to itself: \(steps.joined(separator: " → "))")
                }
                chain.append(current)
                current = next
            }
            resolved[holder] = current
        }
        return resolved
    }

    /// Objects holding a `$ref`, walked from `node` with each shared node once, leaving out
    /// literal values (`example`, `default`, `const`, `enum`, `x-` extensions).
    private static func collectReferences(
        in tree: DocumentTree, _ node: DocumentTree.Node, visited: inout Set<DocumentTree.Node>,
        into holders: inout [(holder: DocumentTree.Node, reference: DocumentTree.Node)]
    ) {
        switch tree.kind(node) {
        case .object:
            guard visited.insert(node).inserted else { return }
            for member in tree.members(node) ?? [] {
                if tree.isString(member.key, "$ref") {
                    holders.append((node, member.value))
                    continue
                }
                guard let key = tree.string(member.key), !literalKeys.contains(key), !key.hasPrefix("x-") else { continue }
                collectReferences(in: tree, member.value, visited: &visited, into: &holders)
            }
        case .array:
            guard visited.insert(node).inserted else { return }
            for element in tree.elements(node) ?? [] { collectReferences(in: tree, element, visited: &visited, into: &holders) }
        default:
            return
        }
    }

    /// Where the `$ref` whose value is `reference` leads.
    private mutating func target(of reference: DocumentNode) throws(LoadIssue) -> DocumentNode {
        guard let text = trees[reference.file].string(reference.node) else {
            throw issue(at: reference, "a $ref must be a string such as '#/components/schemas/User'")
        }
        let hash = text.firstIndex(of: "#")
        let location = String(text[..<(hash ?? text.endIndex)])
        let fragment = hash.map { String(text[text.index(after: $0)...]) } ?? ""
        var file = reference.file
        if !location.isEmpty {
            let lowered = location.lowercased()
            if lowered.hasPrefix("http:") || lowered.hasPrefix("https:") || location.hasPrefix("//") {
                throw issue(
                    at: reference, "the $ref '\(TerminalSafe.escape(text))' names a remote file; nothing is fetched",
                    hint: "download it beside the document and refer to it by a relative path")
            }
            file = try loadFile(location, from: reference, text: text)
        }
        return try follow(pointer: fragment, in: file, from: reference, text: text)
    }

    private mutating func loadFile(_ location: String, from reference: DocumentNode, text: String) throws(LoadIssue) -> Int {
        let relative = location.hasPrefix("file:") ? String(location.dropFirst(5)) : location
        let decoded = relative.removingPercentEncoding ?? relative
        let base = URL(fileURLWithPath: trees[reference.file].file).deletingLastPathComponent()
        let path = decoded.hasPrefix("/") ? decoded : base.appendingPathComponent(decoded).path
        let key = Self.standardized(path)
        if let known = indexByPath[key] { return known }
        guard trees.count < Self.maximumFiles else {
            throw issue(at: reference, "the document is made of more than \(Self.maximumFiles) files")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw issue(
                at: reference, "the $ref '\(TerminalSafe.escape(text))' names a file that does not exist: \(TerminalSafe.escape(path))",
                hint: "paths are relative to the file the $ref is in")
        }
        let tree = try YAMLReader.read(contentsOf: path, limits: limits)
        trees.append(tree)
        indexByPath[key] = trees.count - 1
        return trees.count - 1
    }

    /// The node a JSON pointer (`/components/schemas/User`, `~1` for `/`, `~0` for `~`) leads to.
    private mutating func follow(pointer: String, in file: Int, from reference: DocumentNode, text: String) throws(LoadIssue)
        -> DocumentNode
    {
        var node = DocumentNode(file: file, node: trees[file].root)
        guard !pointer.isEmpty else { return node }
        guard pointer.hasPrefix("/") else {
            throw issue(
                at: reference,
                "the $ref '\(TerminalSafe.escape(text))' names an anchor; only JSON pointers such as #/components/schemas/User are followed"
            )
        }
        var walked = "#"
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = (String(raw).removingPercentEncoding ?? String(raw)).replacingOccurrences(of: "~1", with: "/")
                .replacingOccurrences(of: "~0", with: "~")
            let tree = trees[file]
            if let elements = tree.elements(node.node) {
                guard let index = Int(token), elements.indices.contains(index) else {
                    throw issue(
                        at: reference,
                        "the $ref '\(TerminalSafe.escape(text))' leads nowhere: \(walked) has no element '\(TerminalSafe.escape(token))'")
                }
                node = DocumentNode(file: file, node: elements[index])
            } else if tree.kind(node.node) == .object {
                guard let next = member(node, token) else {
                    let keys = (tree.members(node.node) ?? []).prefix(10_000).compactMap { tree.string($0.key) }
                    throw issue(
                        at: reference,
                        "the $ref '\(TerminalSafe.escape(text))' leads nowhere: \(walked) has no '\(TerminalSafe.escape(token))'",
                        hint: Suggestion.closest(to: token, in: keys).map { "did you mean '\(TerminalSafe.escape($0))'?" })
                }
                node = DocumentNode(file: file, node: next)
            } else {
                throw issue(
                    at: reference,
                    "the $ref '\(TerminalSafe.escape(text))' leads nowhere: \(walked) is a \(tree.kind(node.node)), not a mapping")
            }
            walked += "/" + String(raw)
        }
        return node
    }

    /// A member by key, through an index for a large object.
    private mutating func member(_ node: DocumentNode, _ key: String) -> DocumentTree.Node? {
        let tree = trees[node.file]
        guard tree.count(node.node) > 32 else { return tree.member(node.node, key) }
        if memberIndexes[node] == nil {
            var index: [String: DocumentTree.Node] = [:]
            for member in tree.members(node.node) ?? [] { index[tree.string(member.key) ?? ""] = member.value }
            memberIndexes[node] = index
        }
        return memberIndexes[node]?[key]
    }

    private func issue(at node: DocumentNode, _ message: String, hint: String? = nil) -> LoadIssue {
        let tree = trees[node.file]
        let (line, column) = tree.position(node.node)
        return LoadIssue(location: ScenarioLocation(file: tree.file, line: line, column: column, path: ""), message: message, hint: hint)
    }

    private static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

extension OpenAPIDocument {
    /// A schema that applies itself to the same value again through `$ref`, `allOf`, `anyOf`,
    /// `oneOf` or `not` never describes anything: refused where the loop closes.
    mutating func checkLoops() throws(LoadIssue) {
        var state: [DocumentNode: Bool] = [:]  // false: on the current path; true: done
        for start in references.keys.sorted(by: { ($0.file, $0.node) < ($1.file, $1.node) }) where state[start] == nil {
            // Depth first without recursion: a generated chain of ten thousand schemas is no stack overflow.
            var stack: [(node: DocumentNode, next: Int, children: [DocumentNode])] = [(start, 0, sameValueSchemas(of: start))]
            state[start] = false
            while let top = stack.last {
                guard top.next < top.children.count else {
                    state[top.node] = true
                    stack.removeLast()
                    continue
                }
                let child = top.children[top.next]
                stack[stack.count - 1].next += 1
                switch state[child] {
                case false?:
                    let cycle = stack.map(\.node).drop { $0 != child } + [child]
                    throw issue(
                        top.node,
                        "this schema applies itself to the same value again, so it describes nothing: "
                            + cycle.map { place($0).description }.joined(separator: " → "),
                        hint: "a schema may refer to itself only below a property or an item")
                case nil:
                    state[child] = false
                    stack.append((child, 0, sameValueSchemas(of: child)))
                case true?:
                    continue
                }
            }
        }
    }

    /// The schemas applied to the same value as `node`: its `$ref` target, and the members of
    /// its `allOf`, `anyOf` and `oneOf`, and its `not`.
    func sameValueSchemas(of node: DocumentNode) -> [DocumentNode] {
        guard kind(node) == .object else { return [] }
        var next: [DocumentNode] = []
        if let target = references[node] { next.append(target) }
        for key in ["allOf", "anyOf", "oneOf"] {
            if let list = member(node, key) { next += elements(list) ?? [] }
        }
        if let negated = member(node, "not") { next.append(negated) }
        return next
    }
}
