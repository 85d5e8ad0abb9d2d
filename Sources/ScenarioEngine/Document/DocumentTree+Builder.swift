extension DocumentTree {
    /// Builds a tree node by node, as a reader meets them: a scalar where it is read, a
    /// collection once its children are (they wait in the builder, a stack shared by every
    /// collection being read, until their collection closes). ``JSONTextParser`` and the YAML
    /// reader both build with it.
    package struct Builder {
        private var slots: [Slot] = []
        private var links: [Node] = []
        private var texts: [String] = []
        private var places: [Place] = []
        /// Children of the collections being read, waiting for their collection to close.
        private var open: [Node] = []

        /// Creates an empty builder with room for about `nodes` nodes; `placed` when every node
        /// will be placed and every string decoded (a tree that keeps no source).
        package init(reservingCapacity nodes: Int = 0, placed: Bool = false) {
            slots.reserveCapacity(nodes)
            links.reserveCapacity(nodes)
            if placed {
                places.reserveCapacity(nodes)
                texts.reserveCapacity(nodes / 2)
                open.reserveCapacity(32)
            }
        }

        /// The number of nodes added.
        package var count: Int { slots.count }

        // MARK: Scalars

        /// Adds `null`, written at byte `offset` of the source.
        package mutating func addNull(at offset: Int) -> Node {
            add(.null, at: offset)
        }

        /// Adds a Boolean.
        package mutating func addBool(_ value: Bool, at offset: Int) -> Node {
            add(.bool, at: offset, value ? 1 : 0)
        }

        /// Adds a number.
        package mutating func addNumber(_ value: Double, at offset: Int) -> Node {
            let bits = value.bitPattern
            return add(.number, at: offset, UInt32(truncatingIfNeeded: bits >> 32), UInt32(truncatingIfNeeded: bits))
        }

        /// Adds a string written as is at `range` of the source: the tree must be finished with it.
        package mutating func addString(in range: Range<Int>, at offset: Int) -> Node {
            add(.string, at: offset, UInt32(clamping: range.lowerBound), UInt32(clamping: range.count))
        }

        /// Adds a string that is not held in the source as it reads (escapes, folded lines, or no source kept).
        package mutating func addString(_ text: String, at offset: Int) -> Node {
            texts.append(text)
            return add(.string, at: offset, UInt32(clamping: texts.count - 1), decoded: true)
        }

        private mutating func add(_ kind: Kind, at offset: Int, _ first: UInt32 = 0, _ second: UInt32 = 0, decoded: Bool = false)
            -> Node
        {
            slots.append(Slot(kind: kind, decoded: decoded, offset: UInt32(clamping: offset), first: first, second: second))
            return Node(truncatingIfNeeded: slots.count - 1)
        }

        // MARK: Collections

        /// Where the children of the collection about to be read will start: hand it to ``close(_:from:at:)``.
        package var openCount: Int { open.count }

        /// Adds `node` as the next child of the collection being read (an object's key and value in turn).
        package mutating func addChild(_ node: Node) {
            open.append(node)
        }

        /// The children added since `first` (an object's keys at even positions from `first`).
        package func openChildren(from first: Int) -> ArraySlice<Node> {
            open[first...]
        }

        /// Adds the collection whose children were added since `first`, written at `offset`.
        package mutating func close(_ kind: Kind, from first: Int, at offset: Int) -> Node {
            let children = open.count - first
            let linkStart = links.count
            links.append(contentsOf: open[first...])
            open.removeSubrange(first...)
            let count = kind == .object ? children / 2 : children
            return add(kind, at: offset, UInt32(clamping: linkStart), UInt32(clamping: count))
        }

        // MARK: Places

        /// Records the line and column where the last node added starts, for a tree that keeps
        /// no source: a reader that places one node places all of them, in the order added.
        package mutating func place(line: Int, column: Int) {
            guard places.count == slots.count - 1 else { return }
            places.append(Place(line: UInt32(clamping: line), column: UInt32(clamping: column)))
        }

        /// The place recorded for `node`, if any.
        package func position(_ node: Node) -> (line: Int, column: Int)? {
            guard Int(node) < places.count else { return nil }
            return (Int(places[Int(node)].line), Int(places[Int(node)].column))
        }

        // MARK: Reading back

        /// The kind of `node`.
        package func kind(_ node: Node) -> Kind { slots[Int(node)].kind }

        /// The byte offset `node` was added at.
        package func offset(_ node: Node) -> Int { Int(slots[Int(node)].offset) }

        /// The text of the string `node`, reading a string held in the source from `source`.
        package func string(_ node: Node, source: UnsafeBufferPointer<UInt8>) -> String {
            let slot = slots[Int(node)]
            if slot.decoded { return texts[Int(slot.first)] }
            return String(
                decoding: UnsafeBufferPointer(rebasing: source[Int(slot.first)..<Int(slot.first) + Int(slot.second)]), as: UTF8.self)
        }

        /// Whether the string `node` is `text` (for a string not held in the source).
        package func isText(_ node: Node, _ text: String) -> Bool {
            let slot = slots[Int(node)]
            return slot.decoded && texts[Int(slot.first)] == text
        }

        // MARK: Finishing

        /// The tree whose top node is `root`, read from `file`. `source` and its `lineStarts` are
        /// kept when given; a tree built without them must have placed every node. The builder
        /// is left empty.
        package mutating func finish(file: String, root: Node, source: [UInt8] = [], lineStarts: [UInt32] = [0]) -> DocumentTree {
            let tree = DocumentTree(
                file: file, source: source, slots: slots, links: links, texts: texts, lineStarts: lineStarts,
                places: places.count == slots.count ? places : [], root: root)
            self = Builder()
            return tree
        }
    }
}

extension DocumentTree.Builder {
    /// Adds `value` and everything in it, every node placed at `line`, `column`: a value that
    /// was not read from a file (a form body, a parameter's text) as a tree.
    package mutating func add(_ value: JSONValue, line: Int, column: Int) -> DocumentTree.Node {
        let node: DocumentTree.Node
        switch value {
        case .null: node = addNull(at: 0)
        case .bool(let flag): node = addBool(flag, at: 0)
        case .number(let number): node = addNumber(number, at: 0)
        case .string(let text): node = addString(text, at: 0)
        case .array(let elements):
            let first = openCount
            for element in elements { addChild(add(element, line: line, column: column)) }
            node = close(.array, from: first, at: 0)
        case .object(let object):
            let first = openCount
            for (key, member) in object {
                let keyNode = addString(key, at: 0)
                place(line: line, column: column)
                addChild(keyNode)
                addChild(add(member, line: line, column: column))
            }
            node = close(.object, from: first, at: 0)
        }
        place(line: line, column: column)
        return node
    }
}
