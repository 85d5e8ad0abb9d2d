import Foundation

/// A JSON or YAML document read into flat arrays: every node is 16 bytes, a YAML string written
/// without escapes stays in the source bytes, and a YAML alias is the node it names (shared,
/// never copied). A large API document is then held in a few times its size, with the line and
/// column of every node and key at hand for messages.
///
/// Every reader builds one through ``Builder``: the YAML reader (API documents, in YAML or JSON)
/// and ``JSONTextParser`` (scenario, invariant and trace files, bodies). A tree is immutable and
/// shared by reference, so a cursor into it (``JSONNode``) costs a reference and an index.
///
/// A tree that keeps its source finds a node's line and column from its byte offset when asked;
/// one that keeps none (what ``JSONTextParser`` builds: its strings are decoded, and a streamed
/// piece of a large file cannot keep the file) holds each node's place as read.
package final class DocumentTree: Sendable {
    /// A node of the tree.
    package typealias Node = Int32

    /// What a node holds.
    package enum Kind: UInt8, Sendable {
        case null, bool, number, string, array, object
    }

    /// One node: its kind, where it starts in the source, and two words whose meaning depends on
    /// the kind (a Boolean; a number's bits; a string's bytes in the source or its index in
    /// `texts`; a collection's first child in `links` and its count).
    struct Slot: Sendable {
        var kind: Kind
        /// Set for a string held in `texts` (it had escapes or folded lines, or the tree keeps no source).
        var decoded: Bool
        var offset: UInt32
        var first: UInt32
        var second: UInt32
    }

    /// Where a node starts, in a tree that keeps no source to find it in.
    struct Place: Sendable {
        var line: UInt32
        var column: UInt32
    }

    /// The file it was read from, for messages.
    package let file: String
    /// The source bytes (empty when the tree keeps none).
    let source: [UInt8]
    let slots: [Slot]
    /// Children of collections, contiguous per collection: an array's elements, or an object's
    /// key and value nodes in turn.
    let links: [Node]
    /// Strings that are not held in the source.
    let texts: [String]
    /// Byte offsets at which lines start (of the source, when kept).
    let lineStarts: [UInt32]
    /// The place of every node, when the source is not kept.
    let places: [Place]
    /// The top node.
    package let root: Node

    init(
        file: String, source: [UInt8], slots: [Slot], links: [Node], texts: [String], lineStarts: [UInt32], places: [Place],
        root: Node
    ) {
        self.file = file
        self.source = source
        self.slots = slots
        self.links = links
        self.texts = texts
        self.lineStarts = lineStarts
        self.places = places
        self.root = root
    }

    // MARK: Reading

    /// The kind of `node`.
    package func kind(_ node: Node) -> Kind { slots[Int(node)].kind }

    /// The number of nodes (aliases count once).
    package var nodeCount: Int { slots.count }

    /// The string, when `node` is one.
    package func string(_ node: Node) -> String? {
        let slot = slots[Int(node)]
        guard slot.kind == .string else { return nil }
        return text(of: slot)
    }

    /// The text of a string's slot.
    private func text(of slot: Slot) -> String {
        if slot.decoded { return texts[Int(slot.first)] }
        return String(decoding: source[Int(slot.first)..<Int(slot.first) + Int(slot.second)], as: UTF8.self)
    }

    /// Whether `node` is the string `text`, compared without making a string.
    package func isString(_ node: Node, _ text: String) -> Bool {
        let slot = slots[Int(node)]
        guard slot.kind == .string else { return false }
        if slot.decoded { return texts[Int(slot.first)] == text }
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == Int(slot.second) else { return false }
            let start = Int(slot.first)
            for index in 0..<bytes.count where source[start + index] != bytes[index] { return false }
            return true
        }
    }

    /// The number, when `node` is one.
    package func number(_ node: Node) -> Double? {
        let slot = slots[Int(node)]
        guard slot.kind == .number else { return nil }
        return Double(bitPattern: UInt64(slot.first) << 32 | UInt64(slot.second))
    }

    /// The Boolean, when `node` is one.
    package func bool(_ node: Node) -> Bool? {
        let slot = slots[Int(node)]
        guard slot.kind == .bool else { return nil }
        return slot.first != 0
    }

    /// The elements, when `node` is an array.
    package func elements(_ node: Node) -> [Node]? {
        let slot = slots[Int(node)]
        guard slot.kind == .array else { return nil }
        return Array(links[Int(slot.first)..<Int(slot.first) + Int(slot.second)])
    }

    /// The number of members or elements of a collection; 0 for a scalar.
    package func count(_ node: Node) -> Int {
        let slot = slots[Int(node)]
        return slot.kind == .array || slot.kind == .object ? Int(slot.second) : 0
    }

    /// The members (key node, value node) in written order, when `node` is an object.
    package func members(_ node: Node) -> [(key: Node, value: Node)]? {
        let slot = slots[Int(node)]
        guard slot.kind == .object else { return nil }
        let start = Int(slot.first)
        return (0..<Int(slot.second)).map { (links[start + 2 * $0], links[start + 2 * $0 + 1]) }
    }

    /// The value of the member named `key`, when `node` is an object that has one.
    package func member(_ node: Node, _ key: String) -> Node? {
        memberEntry(node, key)?.value
    }

    /// The key and value nodes of the member named `key`.
    package func memberEntry(_ node: Node, _ key: String) -> (key: Node, value: Node)? {
        let slot = slots[Int(node)]
        guard slot.kind == .object else { return nil }
        let start = Int(slot.first)
        for index in 0..<Int(slot.second) where isString(links[start + 2 * index], key) {
            return (links[start + 2 * index], links[start + 2 * index + 1])
        }
        return nil
    }

    // MARK: Places

    /// The 1-based line and column (in characters) where `node` starts.
    package func position(_ node: Node) -> (line: Int, column: Int) {
        if !places.isEmpty {
            let place = places[Int(node)]
            return (Int(place.line), Int(place.column))
        }
        let offset = Int(slots[Int(node)].offset)
        return source.withUnsafeBufferPointer { Self.position(of: offset, in: $0, lineStarts: lineStarts) }
    }

    /// The 1-based line and column (in characters) of byte `target` of `bytes`, whose lines start at `lineStarts`.
    package static func position(of target: Int, in bytes: UnsafeBufferPointer<UInt8>, lineStarts: [UInt32]) -> (line: Int, column: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(lineStarts[middle]) <= target { low = middle } else { high = middle - 1 }
        }
        var column = 1
        var index = Int(lineStarts[low])
        while index < target && index < bytes.count {
            // A character starts at every byte that is not a UTF-8 continuation byte.
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return (low + 1, column)
    }

    /// `file:line:column` of `node`.
    package func place(_ node: Node) -> String {
        let (line, column) = position(node)
        return "\(file):\(line):\(column)"
    }

    // MARK: Values

    /// The node and everything below it as a ``JSONValue`` (a shared YAML alias is copied at
    /// every use). Made anew at every call: walk the tree instead where only a part is needed.
    package func value(_ node: Node) -> JSONValue {
        let slot = slots[Int(node)]
        switch slot.kind {
        case .null: return .null
        case .bool: return .bool(slot.first != 0)
        case .number: return .number(Double(bitPattern: UInt64(slot.first) << 32 | UInt64(slot.second)))
        case .string: return .string(text(of: slot))
        case .array:
            let start = Int(slot.first)
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(slot.second))
            for index in start..<start + Int(slot.second) { elements.append(value(links[index])) }
            return .array(elements)
        case .object:
            let start = Int(slot.first)
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(Int(slot.second))
            for index in 0..<Int(slot.second) {
                members.append((string(links[start + 2 * index]) ?? "", value(links[start + 2 * index + 1])))
            }
            // Both readers refuse a key given twice in one object.
            return .object(JSONObject(unchecked: members))
        }
    }
}
