/// A parsed JSON value with the position it was written at, and the positions of everything in it:
/// a node of a ``DocumentTree`` (the tree and an index into it, cheap to copy).
///
/// The loader walks nodes rather than bare ``JSONValue``s so that every issue can point at the
/// exact line and column of the key or value it is about.
package struct JSONNode: Sendable {
    /// The tree the node is in.
    package let tree: DocumentTree
    /// The node in `tree`.
    package let node: DocumentTree.Node

    /// One member of an object: its key, where the key is written, and its value.
    package struct Member: Sendable {
        /// The key.
        package let key: String
        /// The key's node, in the value's tree.
        package let keyNode: DocumentTree.Node
        /// The value.
        package let value: JSONNode

        /// 1-based line of the key's opening quote.
        package var keyLine: Int { value.tree.position(keyNode).line }
        /// 1-based column of the key's opening quote.
        package var keyColumn: Int { value.tree.position(keyNode).column }
    }

    /// The node `node` of `tree`.
    package init(tree: DocumentTree, node: DocumentTree.Node) {
        self.tree = tree
        self.node = node
    }

    /// The top node of `tree`.
    package init(tree: DocumentTree) {
        self.init(tree: tree, node: tree.root)
    }

    /// A node for a value that was not read from a file (a form body, a parameter's text): it and
    /// everything in it are placed at `line`, `column`.
    package init(value: JSONValue, line: Int, column: Int) {
        var builder = DocumentTree.Builder()
        let root = builder.add(value, line: line, column: column)
        self.init(tree: builder.finish(file: "", root: root))
    }

    /// The value, with everything below it (made from the tree at each use).
    package var value: JSONValue { tree.value(node) }

    /// What the node holds.
    package var kind: DocumentTree.Kind { tree.kind(node) }

    /// 1-based line of the value's first character.
    package var line: Int { tree.position(node).line }

    /// 1-based column (in characters) of the value's first character.
    package var column: Int { tree.position(node).column }

    /// The string, when this is one.
    package var stringValue: String? { tree.string(node) }

    /// The number, when this is one.
    package var numberValue: Double? { tree.number(node) }

    /// The members, when this is an object (read from the tree as they are visited).
    package var members: Members? {
        let slot = tree.slots[Int(node)]
        guard slot.kind == .object else { return nil }
        return Members(tree: tree, start: Int(slot.first), count: Int(slot.second))
    }

    /// The elements, when this is an array (read from the tree as they are visited).
    package var elements: Elements? {
        let slot = tree.slots[Int(node)]
        guard slot.kind == .array else { return nil }
        return Elements(tree: tree, start: Int(slot.first), count: Int(slot.second))
    }

    /// An object's members in written order: a view of the tree, made into members one at a time.
    /// `[]` is no members (`node.members ?? []`).
    package struct Members: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
        let tree: DocumentTree?
        /// Where the first key is in the tree's links (keys and values alternate).
        let start: Int
        /// The number of members.
        package let count: Int

        init(tree: DocumentTree, start: Int, count: Int) {
            self.tree = tree
            self.start = start
            self.count = count
        }

        /// No members.
        package init(arrayLiteral elements: Never...) {
            tree = nil
            start = 0
            count = 0
        }

        /// The first position, 0.
        package var startIndex: Int { 0 }
        /// The position after the last member.
        package var endIndex: Int { count }

        /// The member at `position`.
        package subscript(position: Int) -> Member {
            // Only the empty view has no tree, and it has no position to ask for.
            guard let tree else { preconditionFailure("no member at \(position) of no members") }
            let key = tree.links[start + 2 * position]
            return Member(
                key: tree.string(key) ?? "", keyNode: key, value: JSONNode(tree: tree, node: tree.links[start + 2 * position + 1]))
        }
    }

    /// An array's elements in order: a view of the tree.
    /// `[]` is no elements (`node.elements ?? []`).
    package struct Elements: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
        let tree: DocumentTree?
        /// Where the first element is in the tree's links.
        let start: Int
        /// The number of elements.
        package let count: Int

        init(tree: DocumentTree, start: Int, count: Int) {
            self.tree = tree
            self.start = start
            self.count = count
        }

        /// No elements.
        package init(arrayLiteral elements: Never...) {
            tree = nil
            start = 0
            count = 0
        }

        /// The first position, 0.
        package var startIndex: Int { 0 }
        /// The position after the last element.
        package var endIndex: Int { count }

        /// The element at `position`.
        package subscript(position: Int) -> JSONNode {
            guard let tree else { preconditionFailure("no element at \(position) of no elements") }
            return JSONNode(tree: tree, node: tree.links[start + position])
        }
    }

    /// The member named `key`, when this is an object that has one.
    package func member(_ key: String) -> Member? {
        guard let entry = tree.memberEntry(node, key) else { return nil }
        return Member(key: tree.string(entry.key) ?? key, keyNode: entry.key, value: JSONNode(tree: tree, node: entry.value))
    }

    /// The value node of the member named `key`, when this is an object that has one.
    package subscript(key: String) -> JSONNode? {
        tree.member(node, key).map { JSONNode(tree: tree, node: $0) }
    }
}
