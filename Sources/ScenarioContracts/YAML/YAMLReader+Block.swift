import ScenarioEngine

/// Block structure: the document, block mappings and sequences, and the lines between them.
///
/// After any block node is read the cursor stands on the first character of the next line that
/// holds content (blank and comment lines skipped), and `nextIndent` is that line's indentation:
/// `nil` at the end of the file, `-1` at a document marker (`---`, `...`), which ends every block.
extension YAMLReader.Scanner {
    /// Where a block node stands, which decides what may start on its own line.
    enum BlockContext {
        case document, mappingValue, sequenceEntry
    }

    /// What the next line holds.
    enum LineKind {
        case content, comment, end, marker
    }

    // MARK: The document

    mutating func readDocument() throws(LoadIssue) {
        try checkEncoding()
        if json {
            try readJSONDocument()
            return
        }
        try readPrologue()
        root = try parseBlockNode(parentIndent: -1, context: .document)
        guard let indent = nextIndent else { return }
        guard indent == -1 else {
            throw issue(
                "this line is not part of the document's top-level node", at: offset,
                hint: "check its indentation against the lines above")
        }
        if peek() == UInt8(ascii: "-") { throw issue("a second document starts here; an API document is one YAML document", at: offset) }
        offset += 3
        skipBlanks()
        if !atEnd, !Self.isBreak(peek()), peek() != UInt8(ascii: "#") {
            throw issue("nothing may follow '...' on its line", at: offset)
        }
        if try skipToNextContentLine() != nil {
            throw issue("a second document starts here; an API document is one YAML document", at: offset)
        }
    }

    /// Skips blank and comment lines, `%YAML` directives and the `---` that starts the document.
    private mutating func readPrologue() throws(LoadIssue) {
        while peek() == UInt8(ascii: " ") { offset += 1 }
        if Self.isBlank(peek()) {
            let tab = offset
            skipBlanks()
            if !atEnd, !Self.isBreak(peek()), peek() != UInt8(ascii: "#") {
                throw issue("a tab indents this line; YAML indents with spaces only", at: tab)
            }
        }
        if atEnd || Self.isBreak(peek()) || peek() == UInt8(ascii: "#") {
            guard try skipToNextContentLine() != nil else { return }
        }
        while peek() == UInt8(ascii: "%"), column == 0 {
            guard startsWith("%YAML"), Self.isBlank(peek(5)) else {
                throw issue("only the %YAML directive is supported", at: offset, hint: "remove the directive")
            }
            skipToLineEnd()
            guard try skipToNextContentLine() != nil else { return }
        }
        if column == 0, startsWith("---"), Self.isSeparator(peek(3)) {
            offset += 3
        } else if column == 0, startsWith("..."), Self.isSeparator(peek(3)) {
            throw issue("'...' ends a document that has not started", at: offset)
        }
    }

    func startsWith(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        for index in 0..<count where bytes[offset + index] != text.utf8Start[index] { return false }
        return true
    }

    // MARK: Lines

    /// From a line break, a comment or the end: steps to the first character of the next line
    /// and says what it holds, counting the empty lines passed. A tab before content is refused
    /// unless `allowTab` (a plain scalar's continuation may be indented by one).
    mutating func nextLine(allowTab: Bool = false) throws(LoadIssue) -> (kind: LineKind, indent: Int, emptyLines: Int) {
        var emptyLines = 0
        if peek() == UInt8(ascii: "#") { skipToLineEnd() }
        while !atEnd {
            consumeBreak()
            while peek() == UInt8(ascii: " ") { offset += 1 }
            let indent = column
            if Self.isBlank(peek()) {
                var probe = offset
                while probe < bytes.count, Self.isBlank(bytes[probe]) { probe += 1 }
                let next: UInt8? = probe < bytes.count ? bytes[probe] : nil
                if next == nil || Self.isBreak(next) || next == UInt8(ascii: "#") {
                    offset = probe
                } else if !allowTab {
                    throw issue("a tab indents this line; YAML indents with spaces only", at: offset)
                } else {
                    offset = probe
                    return (.content, indent, emptyLines)
                }
            }
            guard let byte = peek() else { break }
            if Self.isBreak(byte) {
                emptyLines += 1
                continue
            }
            if byte == UInt8(ascii: "#") { return (.comment, indent, emptyLines) }
            if indent == 0, startsWith("---") || startsWith("..."), Self.isSeparator(peek(3)) { return (.marker, -1, emptyLines) }
            return (.content, indent, emptyLines)
        }
        return (.end, 0, emptyLines)
    }

    /// Steps past the rest of the line, blank and comment lines to the next line with content,
    /// and sets `nextIndent` to its indentation.
    @discardableResult
    mutating func skipToNextContentLine() throws(LoadIssue) -> Int? {
        while true {
            let next = try nextLine()
            switch next.kind {
            case .comment: continue
            case .end: nextIndent = nil
            case .marker: nextIndent = -1
            case .content: nextIndent = next.indent
            }
            return nextIndent
        }
    }

    /// After a node that ends on its line: only blanks and a comment may follow.
    mutating func finishLine() throws(LoadIssue) {
        let before = offset
        skipBlanks()
        if let byte = peek(), !Self.isBreak(byte) {
            guard byte == UInt8(ascii: "#"), offset > before else {
                throw issue("unexpected \(describe(byte)) after a complete value", at: offset, hint: "quote the value, or start a new line")
            }
        }
        try skipToNextContentLine()
    }

    // MARK: Nodes

    /// The node after a key's `:`, a `- ` or at the top: on this line, or on the lines below
    /// indented more than `parentIndent`.
    mutating func parseBlockNode(parentIndent: Int, context: BlockContext) throws(LoadIssue) -> DocumentTree.Node {
        skipBlanks()
        let properties = try readProperties()
        let start = properties?.start ?? offset
        if atEnd || Self.isBreak(peek()) || peek() == UInt8(ascii: "#") {
            let indent = try skipToNextContentLine()
            let sequenceHere = context == .mappingValue && indent == parentIndent && isSequenceEntry
            guard let indent, indent > parentIndent || sequenceHere else {
                return try emptyNode(properties, at: start)
            }
            return try parseBlockContent(parentIndent: parentIndent, context: context, sameLine: false, properties: properties)
        }
        return try parseBlockContent(parentIndent: parentIndent, context: context, sameLine: true, properties: properties)
    }

    var isSequenceEntry: Bool { peek() == UInt8(ascii: "-") && Self.isSeparator(peek(1)) }

    private mutating func parseBlockContent(
        parentIndent: Int, context: BlockContext, sameLine: Bool, properties written: Properties?
    ) throws(LoadIssue) -> DocumentTree.Node {
        let start = offset
        let indent = column
        let afterKey = sameLine && context == .mappingValue
        // A tag at the start of a node's own line: the node's, or its first key's (PyYAML writes
        // `!!int "200":` for a key it read as a number).
        var properties = written
        let ownLine = !sameLine && written == nil && (peek() == UInt8(ascii: "!") || peek() == UInt8(ascii: "&"))
        if ownLine { properties = try readProperties() }
        guard let byte = peek() else { return try emptyNode(properties, at: start) }
        switch byte {
        case UInt8(ascii: "-") where Self.isSeparator(peek(1)):
            if afterKey {
                throw issue("a '- ' entry cannot start on the line of its key", at: offset, hint: "start the list on the next line")
            }
            let node = try parseBlockSequence(indent: indent, start: properties?.start ?? start)
            return try apply(properties, to: node)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let node = try apply(properties, to: try parseFlowCollection())
            try refuseKey(after: "a [ ] or { } collection")
            try finishLine()
            return node
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            return try parseBlockScalar(parentIndent: parentIndent, properties: properties)
        case UInt8(ascii: "*"):
            if properties != nil { throw issue("an alias cannot have an anchor or a tag", at: offset) }
            let node = try readAlias()
            try refuseKey(after: "an alias")
            try finishLine()
            return node
        case UInt8(ascii: "?") where Self.isSeparator(peek(1)):
            if afterKey {
                throw issue("a '? ' key cannot start on the line of its key", at: offset, hint: "start the mapping on the next line")
            }
            if let properties, properties.line == line {
                throw issue("an anchor or a tag on a mapping key is not supported", at: properties.start)
            }
            let key = try readExplicitKey(indent: indent)
            return try apply(properties, to: try parseBlockMapping(indent: indent, firstKey: key, start: properties?.start ?? start))
        case UInt8(ascii: ":") where Self.isSeparator(peek(1)):
            throw issue("a ':' with no key before it", at: offset)
        default:
            break
        }
        let scalar = try readScalarStart(flow: false)
        guard scalar.isKey else {
            return try finishScalar(scalar, parentIndent: parentIndent, properties: properties)
        }
        if afterKey {
            throw issue(
                "a 'key: value' cannot start on the line of its key", at: start,
                hint: "start the mapping on the next line, or quote the value")
        }
        if let keyProperties = properties, keyProperties.line == line {
            guard ownLine, Self.isKeyTag(keyProperties) else {
                throw issue("an anchor or a tag on a mapping key is not supported", at: keyProperties.start)
            }
            // Keys are text whatever their tag said they were.
            return try parseBlockMapping(indent: indent, firstKey: try keyNode(scalar), start: start)
        }
        let key = try keyNode(scalar)
        return try apply(properties, to: try parseBlockMapping(indent: indent, firstKey: key, start: properties?.start ?? start))
    }

    /// Whether `properties` before a key are a scalar tag alone (no anchor, not `!!map`/`!!seq`).
    static func isKeyTag(_ properties: Properties) -> Bool {
        properties.anchor == nil && properties.tag != .mapping && properties.tag != .sequence
    }

    /// A `:` after a node that may not be a key.
    private mutating func refuseKey(after what: String) throws(LoadIssue) {
        let before = offset
        skipBlanks()
        if peek() == UInt8(ascii: ":"), Self.isSeparator(peek(1)) {
            throw issue("\(what) as a mapping key is not supported", at: offset, hint: "write a plain or quoted key")
        }
        offset = before
    }

    private mutating func parseBlockMapping(indent: Int, firstKey: DocumentTree.Node, start: Int) throws(LoadIssue)
        -> DocumentTree.Node
    {
        try enterCollection(at: start)
        let first = firstChild
        var key = firstKey
        while true {
            // After an explicit key (`? key` on a line above) the value may be a compact mapping, as
            // a list entry's may: `: type: object`.
            let explicit = tree.offset(key) < Int(lineStarts[line])
            offset += 1  // the ':'
            addChild(key)
            path.append(.key(key))
            let value = try parseBlockNode(parentIndent: indent, context: explicit ? .sequenceEntry : .mappingValue)
            path.removeLast()
            addChild(value)
            guard let next = nextIndent, next >= indent else { break }
            if next > indent {
                throw issue(
                    "this line is indented more than the keys of its mapping (column \(indent + 1)) but belongs to no value", at: offset,
                    hint: "align it with the keys, or indent the value under its key")
            }
            if isSequenceEntry {
                throw issue("a '- ' entry where the mapping expects its next 'key:'", at: offset, hint: "indent the list under a key")
            }
            key = try readKey()
        }
        depth -= 1
        return try close(.object, from: first, at: start)
    }

    private mutating func parseBlockSequence(indent: Int, start: Int) throws(LoadIssue) -> DocumentTree.Node {
        try enterCollection(at: start)
        let first = firstChild
        var index = 0
        while true {
            offset += 1  // the '-'
            path.append(.index(index))
            let entry = try parseBlockNode(parentIndent: indent, context: .sequenceEntry)
            path.removeLast()
            addChild(entry)
            index += 1
            guard let next = nextIndent, next >= indent else { break }
            if next > indent {
                throw issue(
                    "this line is indented more than the '- ' entries of its list (column \(indent + 1)) but belongs to no entry",
                    at: offset, hint: "align it with the entries, or indent it under one")
            }
            guard isSequenceEntry else { break }
        }
        depth -= 1
        return try close(.array, from: first, at: start)
    }

    /// The next key of a block mapping, at the mapping's indentation: a plain or quoted scalar
    /// on one line followed by `:`.
    private mutating func readKey() throws(LoadIssue) -> DocumentTree.Node {
        let start = offset
        switch peek() {
        case UInt8(ascii: "?") where Self.isSeparator(peek(1)):
            return try readExplicitKey(indent: column)
        case UInt8(ascii: "!"):
            // A scalar tag on a key, as PyYAML writes it (`!!int "200":`); the key is text all the same.
            guard let properties = try readProperties(), Self.isKeyTag(properties) else {
                throw issue("an anchor or a tag on a mapping key is not supported", at: start)
            }
        case UInt8(ascii: "&"):
            throw issue("an anchor or a tag on a mapping key is not supported", at: offset)
        case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "*"), UInt8(ascii: "|"), UInt8(ascii: ">"):
            throw issue("expected the next 'key:' of the mapping; got \(describe(peek()))", at: offset)
        default:
            break
        }
        let scalar = try readScalarStart(flow: false)
        guard scalar.isKey else {
            throw issue(
                "expected 'key: value' at the mapping's indentation", at: start,
                hint: "indent a continued value further than its key, or quote it")
        }
        return try keyNode(scalar)
    }
}
