import Foundation
import ScenarioEngine

/// Scalars: plain (resolved by the YAML 1.2 core schema), quoted, and the start of a node's
/// anchor and tag.
extension YAMLReader.Scanner {
    /// A node's `&anchor` and `!tag`, read before it.
    struct Properties {
        var start: Int
        var line: Int
        var expandedAtStart: Int
        var anchor: String?
        var tag: Tag?
    }

    /// The tags an API document may use: the core schema's, and `!` (a string).
    enum Tag: String {
        case string = "str"
        case integer = "int"
        case float
        case boolean = "bool"
        case null
        case mapping = "map"
        case sequence = "seq"
        case nonSpecific = "!"
    }

    /// What ended a plain scalar's segment of a line.
    enum PlainStop {
        case lineEnd, comment, colon, flowIndicator
    }

    /// A scalar read up to where it could be a key: a plain scalar's first line, or a whole
    /// quoted one.
    struct ScalarStart {
        var start: Int
        var quoted: Bool
        /// The bytes of the value, when it reads as written.
        var range: Range<Int>?
        /// The value, when it does not.
        var text: String?
        var spansLines = false
        var stop = PlainStop.lineEnd
        var isKey = false
    }

    // MARK: Properties and aliases

    mutating func readProperties() throws(LoadIssue) -> Properties? {
        guard !json else { return nil }
        var properties: Properties?
        while peek() == UInt8(ascii: "&") || peek() == UInt8(ascii: "!") {
            var found = properties ?? Properties(start: offset, line: line, expandedAtStart: expanded)
            let start = offset
            if peek() == UInt8(ascii: "&") {
                if found.anchor != nil { throw issue("a node takes one anchor", at: offset) }
                offset += 1
                found.anchor = try readName(what: "anchor", at: start)
            } else {
                if found.tag != nil { throw issue("a node takes one tag", at: offset) }
                found.tag = try readTag()
            }
            guard Self.isSeparator(peek()) || Self.isFlowIndicator(peek()) else {
                throw issue("expected a space after the anchor or tag; got \(describe(peek()))", at: offset)
            }
            properties = found
            skipBlanks()
        }
        return properties
    }

    private mutating func readName(what: String, at start: Int) throws(LoadIssue) -> String {
        let nameStart = offset
        while let byte = peek(), !Self.isSeparator(byte), !Self.isFlowIndicator(byte) { offset += 1 }
        guard offset > nameStart else { throw issue("an \(what) needs a name", at: start) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<offset]), as: UTF8.self)
    }

    private mutating func readTag() throws(LoadIssue) -> Tag {
        let start = offset
        while let byte = peek(), !Self.isSeparator(byte), !Self.isFlowIndicator(byte) { offset += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        let name: String
        if text == "!" {
            name = "!"
        } else if text.hasPrefix("!!") {
            name = String(text.dropFirst(2))
        } else if text.hasPrefix("!<tag:yaml.org,2002:"), text.hasSuffix(">") {
            name = String(text.dropFirst(20).dropLast())
        } else {
            name = text
        }
        guard let tag = Tag(rawValue: name) else {
            throw issue(
                "the tag '\(TerminalSafe.escape(text))' is not supported", at: start,
                hint: "API documents need none; the core tags !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are read")
        }
        return tag
    }

    mutating func readAlias() throws(LoadIssue) -> DocumentTree.Node {
        let start = offset
        offset += 1
        let name = try readName(what: "alias", at: start)
        guard let anchor = anchors[name] else {
            throw issue(
                "the alias '*\(TerminalSafe.escape(name))' names no anchor defined before it", at: start,
                hint: "define '&\(TerminalSafe.escape(name))' on a node above, or fix the name")
        }
        expanded += anchor.size
        let allowed = limits.aliasAllowance + 10 * bytes.count
        if expanded > allowed {
            throw issue(
                "aliases make this document more than \(allowed) nodes when copied out (a 'billion laughs')", at: start,
                hint: "an alias may repeat a node, not multiply the document")
        }
        return anchor.node
    }

    /// Checks a collection's tag and records its anchor.
    mutating func apply(_ properties: Properties?, to node: DocumentTree.Node) throws(LoadIssue) -> DocumentTree.Node {
        guard let properties else { return node }
        let kind = tree.kind(node)
        let fits: Bool
        switch properties.tag {
        case .mapping?: fits = kind == .object
        case .sequence?: fits = kind == .array
        case nil, .nonSpecific?: fits = true
        default: fits = kind != .object && kind != .array
        }
        if !fits { throw issue("the tag !!\(properties.tag?.rawValue ?? "") does not fit this \(kind)", at: properties.start) }
        if let anchor = properties.anchor { anchors[anchor] = (node, expanded - properties.expandedAtStart) }
        return node
    }

    /// A node with nothing written: null, or the empty value its tag names.
    mutating func emptyNode(_ properties: Properties?, at start: Int) throws(LoadIssue) -> DocumentTree.Node {
        let node: DocumentTree.Node
        switch properties?.tag {
        case .string?, .nonSpecific?: node = addRawString(start..<start, at: start)
        case .mapping?: node = try close(.object, from: firstChild, at: start)
        case .sequence?: node = try close(.array, from: firstChild, at: start)
        case nil, .null?: node = addNull(at: start)
        case let tag?: throw issue("an empty value cannot be !!\(tag.rawValue)", at: start)
        }
        return try apply(properties, to: node)
    }

    // MARK: Scalars

    /// Reads a quoted scalar, or a plain scalar's first segment, and whether a `:` makes it a key.
    mutating func readScalarStart(flow: Bool) throws(LoadIssue) -> ScalarStart {
        let start = offset
        if peek() == UInt8(ascii: "\"") || peek() == UInt8(ascii: "'") {
            var scalar = try readQuoted()
            let after = offset
            skipBlanks()
            if peek() == UInt8(ascii: ":"), flow || Self.isSeparator(peek(1)) {
                if scalar.spansLines { throw issue("a key must be written on one line", at: start) }
                scalar.isKey = true
            } else {
                offset = after
            }
            return scalar
        }
        try checkPlainStart(flow: flow)
        let segment = scanPlainSegment(flow: flow)
        return ScalarStart(start: start, quoted: false, range: segment.range, stop: segment.stop, isKey: segment.stop == .colon)
    }

    private func checkPlainStart(flow: Bool) throws(LoadIssue) {
        guard let byte = peek() else { throw issue("expected a value; got the end of the file", at: offset) }
        let next = peek(1)
        let indicatorAlone = Self.isSeparator(next) || (flow && Self.isFlowIndicator(next))
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
            if indicatorAlone { throw issue("expected a value; got \(describe(byte)) on its own", at: offset, hint: "quote the value") }
        case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "#"),
            UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "%"),
            UInt8(ascii: "@"), UInt8(ascii: "`"):
            throw issue("a plain value cannot start with \(describe(byte))", at: offset, hint: "quote the value")
        default:
            break
        }
    }

    /// Reads plain text up to the end of the line, a comment, a `: ` (or, in flow, a `,` `[` `]`
    /// `{` `}`); the cursor stays on what stopped it. Trailing blanks are not part of the range.
    mutating func scanPlainSegment(flow: Bool) -> (range: Range<Int>, stop: PlainStop) {
        let start = offset
        var end = offset
        while let byte = peek() {
            if Self.isBreak(byte) { return (start..<end, .lineEnd) }
            if Self.isBlank(byte) {
                offset += 1
                continue
            }
            if byte == UInt8(ascii: ":"), Self.isSeparator(peek(1)) || (flow && Self.isFlowIndicator(peek(1))) {
                return (start..<end, .colon)
            }
            if byte == UInt8(ascii: "#"), offset > start, Self.isBlank(bytes[offset - 1]) { return (start..<end, .comment) }
            if flow, Self.isFlowIndicator(byte) { return (start..<end, .flowIndicator) }
            offset += 1
            end = offset
        }
        return (start..<end, .lineEnd)
    }

    /// A key's node: its text, never resolved (`200:` is the key "200", as in JSON).
    mutating func keyNode(_ scalar: ScalarStart) throws(LoadIssue) -> DocumentTree.Node {
        if let range = scalar.range { return addRawString(range, at: scalar.start) }
        return addString(scalar.text ?? "", at: scalar.start)
    }

    /// Ends a scalar value in block context: a plain one may go on over the lines below that are
    /// indented more than `parentIndent`, folded into one.
    mutating func finishScalar(_ scalar: ScalarStart, parentIndent: Int, properties: Properties?) throws(LoadIssue)
        -> DocumentTree.Node
    {
        if scalar.quoted {
            let node = try scalarNode(scalar, plain: false, tag: properties?.tag)
            try finishLine()
            return try apply(properties, to: node)
        }
        var folded: [UInt8]?
        var stop = scalar.stop
        while stop == .lineEnd, !atEnd {
            let next = try nextLine(allowTab: true)
            guard next.kind == .content, next.indent > parentIndent else {
                switch next.kind {
                case .comment: try skipToNextContentLine()
                case .end: nextIndent = nil
                case .marker: nextIndent = -1
                case .content:
                    if column != next.indent { throw issue("a tab indents this line; YAML indents with spaces only", at: offset - 1) }
                    nextIndent = next.indent
                }
                return try apply(properties, to: try scalarNode(scalar.with(folded), plain: true, tag: properties?.tag))
            }
            let segment = scanPlainSegment(flow: false)
            if segment.stop == .colon {
                throw issue(
                    "a line that goes on with a plain value cannot hold ': '", at: offset,
                    hint: "quote the value, or indent this line as a key of its own")
            }
            var text = folded ?? Array(UnsafeBufferPointer(rebasing: bytes[scalar.range ?? 0..<0]))
            if next.emptyLines == 0 {
                text.append(0x20)
            } else {
                text.append(contentsOf: repeatElement(0x0A, count: next.emptyLines))
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segment.range]))
            folded = text
            stop = segment.stop
        }
        if stop == .comment || stop == .lineEnd {
            try skipToNextContentLine()
        }
        return try apply(properties, to: try scalarNode(scalar.with(folded), plain: true, tag: properties?.tag))
    }

    /// The node of a scalar: a plain one resolved by the core schema, a quoted one a string, and
    /// either as its tag says.
    mutating func scalarNode(_ scalar: ScalarStart, plain: Bool, tag: Tag?) throws(LoadIssue) -> DocumentTree.Node {
        let start = scalar.start
        func string(_ scanner: inout Self) -> DocumentTree.Node {
            if let range = scalar.range { return scanner.addRawString(range, at: start) }
            return scanner.addString(scalar.text ?? "", at: start)
        }
        let bytes = self.bytes
        let resolved: Resolved = {
            if let range = scalar.range { return Self.resolve(UnsafeBufferPointer(rebasing: bytes[range])) }
            var text = scalar.text ?? ""
            return text.withUTF8 { Self.resolve($0) }
        }()
        switch tag {
        case nil where plain:
            switch resolved {
            case .null: return addNull(at: start)
            case .bool(let value): return addBool(value, at: start)
            case .number(let value): return addNumber(value, at: start)
            case .string: return string(&self)
            }
        case nil, .string?, .nonSpecific?:
            return string(&self)
        case .integer?, .float?:
            guard case .number(let value) = resolved, tag == .float || value.rounded() == value else {
                throw issue("the value tagged !!\(tag?.rawValue ?? "") is not one", at: start)
            }
            return addNumber(value, at: start)
        case .boolean?:
            guard case .bool(let value) = resolved else { throw issue("the value tagged !!bool is not true or false", at: start) }
            return addBool(value, at: start)
        case .null?:
            guard case .null = resolved else { throw issue("the value tagged !!null is not null", at: start) }
            return addNull(at: start)
        case .mapping?, .sequence?:
            throw issue("a scalar cannot be tagged !!\(tag?.rawValue ?? "")", at: start)
        }
    }
}

extension YAMLReader.Scanner.ScalarStart {
    /// The same scalar with `folded` bytes as its value, when lines were folded.
    func with(_ folded: [UInt8]?) -> Self {
        guard let folded else { return self }
        var copy = self
        copy.range = nil
        copy.text = String(decoding: folded, as: UTF8.self)
        return copy
    }
}
