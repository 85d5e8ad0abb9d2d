import Foundation
import ScenarioEngine

/// Flow collections (`[a, b]`, `{a: 1}`) over any number of lines, and strict JSON, which reads
/// through the same collections with YAML's extras refused.
extension YAMLReader.Scanner {
    // MARK: JSON

    mutating func readJSONDocument() throws(LoadIssue) {
        _ = try skipFlowSpace()
        guard !atEnd else { throw issue("the document is empty; expected a JSON value", at: offset) }
        root = try parseFlowNode()
        _ = try skipFlowSpace()
        if let byte = peek() {
            throw issue("unexpected \(describe(byte)) after the document's JSON value", at: offset, hint: "a JSON document holds one value")
        }
    }

    private mutating func parseJSONScalar() throws(LoadIssue) -> DocumentTree.Node {
        let start = offset
        switch peek() {
        case UInt8(ascii: "\"")?:
            let scalar = try readQuoted()
            if let range = scalar.range { return addRawString(range, at: start) }
            return addString(scalar.text ?? "", at: start)
        case UInt8(ascii: "t")? where startsWith("true"): return try jsonLiteral(4, addBool(true, at: start))
        case UInt8(ascii: "f")? where startsWith("false"): return try jsonLiteral(5, addBool(false, at: start))
        case UInt8(ascii: "n")? where startsWith("null"): return try jsonLiteral(4, addNull(at: start))
        case let byte? where byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")):
            return addNumber(try readJSONNumber(), at: start)
        default:
            throw issue("expected a JSON value; got \(describe(peek()))", at: offset)
        }
    }

    private mutating func jsonLiteral(_ length: Int, _ node: DocumentTree.Node) throws(LoadIssue) -> DocumentTree.Node {
        offset += length
        if let byte = peek(), !Self.isSeparator(byte), !Self.isFlowIndicator(byte), byte != UInt8(ascii: ":") {
            throw issue("expected a JSON value; got \(describe(byte)) after a literal", at: offset)
        }
        return node
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func readJSONNumber() throws(LoadIssue) -> Double {
        let start = offset
        func digits(_ scanner: inout Self) -> Int {
            let from = scanner.offset
            while let byte = scanner.peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { scanner.offset += 1 }
            return scanner.offset - from
        }
        if peek() == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        let integer = digits(&self)
        guard integer > 0, !(integer > 1 && bytes[integerStart] == UInt8(ascii: "0")) else {
            throw issue("not a JSON number: digits are needed, with no leading zero", at: start)
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard digits(&self) > 0 else { throw issue("not a JSON number: a digit must follow '.'", at: start) }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard digits(&self) > 0 else { throw issue("not a JSON number: the exponent needs digits", at: start) }
        }
        guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)) else {
            throw issue("not a JSON number", at: start)
        }
        return value
    }

    // MARK: Flow collections

    /// Spaces, line breaks and (in YAML) comments between flow tokens; how many line breaks.
    private mutating func skipFlowSpace() throws(LoadIssue) -> Int {
        var breaks = 0
        var afterSpace = true
        while let byte = peek() {
            if Self.isBreak(byte) {
                consumeBreak()
                breaks += 1
                afterSpace = true
            } else if Self.isBlank(byte) {
                offset += 1
                afterSpace = true
            } else if byte == UInt8(ascii: "#"), !json, afterSpace {
                skipToLineEnd()
            } else {
                break
            }
        }
        return breaks
    }

    /// A `[...]` or `{...}` collection, with the cursor after its closing bracket.
    mutating func parseFlowCollection() throws(LoadIssue) -> DocumentTree.Node {
        let start = offset
        let isMapping = peek() == UInt8(ascii: "{")
        let closing = isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")
        try enterCollection(at: start)
        offset += 1
        let first = firstChild
        var count = 0
        while true {
            _ = try skipFlowSpace()
            guard let byte = peek() else {
                throw issue("the \(isMapping ? "{" : "[") opened here is not closed", at: start, hint: "add \(describe(closing))")
            }
            if byte == closing {
                offset += 1
                break
            }
            if count > 0 {
                guard byte == UInt8(ascii: ",") else {
                    throw issue("expected ',' or \(describe(closing)); got \(describe(byte))", at: offset)
                }
                let comma = offset
                offset += 1
                _ = try skipFlowSpace()
                if peek() == closing {
                    if json { throw issue("a trailing comma before \(describe(closing)) is not JSON", at: comma) }
                    continue
                }
            }
            if isMapping {
                let key = try readFlowKey()
                path.append(.key(key))
                _ = try skipFlowSpace()
                var value: DocumentTree.Node
                if peek() == UInt8(ascii: ":") {
                    offset += 1
                    _ = try skipFlowSpace()
                    value = peek() == UInt8(ascii: ",") || peek() == closing ? addNull(at: offset) : try parseFlowNode()
                } else if json {
                    throw issue("expected ':' after the key; got \(describe(peek()))", at: offset)
                } else {
                    value = addNull(at: offset)
                }
                path.removeLast()
                addChild(key)
                addChild(value)
            } else {
                path.append(.index(count))
                let node = try parseFlowNode()
                path.removeLast()
                let after = (offset, line)
                _ = try skipFlowSpace()
                if peek() == UInt8(ascii: ":") {
                    throw issue("a 'key: value' inside [ ] is not supported", at: offset, hint: "write it as { key: value }")
                }
                (offset, line) = after
                addChild(node)
            }
            count += 1
        }
        depth -= 1
        return try close(isMapping ? .object : .array, from: first, at: start)
    }

    private mutating func readFlowKey() throws(LoadIssue) -> DocumentTree.Node {
        switch peek() {
        case UInt8(ascii: "\"")?: break
        case _ where json: throw issue("a JSON key is a string in double quotes; got \(describe(peek()))", at: offset)
        case UInt8(ascii: "'")?: break
        case UInt8(ascii: "?")?: throw issue("explicit keys ('? ') are not supported", at: offset, hint: "write 'key: value'")
        case UInt8(ascii: "[")?, UInt8(ascii: "{")?, UInt8(ascii: "*")?:
            throw issue("a collection or an alias as a mapping key is not supported", at: offset)
        case UInt8(ascii: "&")?, UInt8(ascii: "!")?: throw issue("an anchor or a tag on a mapping key is not supported", at: offset)
        case UInt8(ascii: ":")?: throw issue("a ':' with no key before it", at: offset)
        default: break
        }
        let scalar = try readScalarStart(flow: true)
        return try keyNode(scalar)
    }

    /// A value inside a flow collection (or a whole JSON document).
    private mutating func parseFlowNode() throws(LoadIssue) -> DocumentTree.Node {
        if json {
            if peek() == UInt8(ascii: "[") || peek() == UInt8(ascii: "{") { return try parseFlowCollection() }
            return try parseJSONScalar()
        }
        let properties = try readProperties()
        let start = offset
        switch peek() {
        case UInt8(ascii: "[")?, UInt8(ascii: "{")?:
            return try apply(properties, to: try parseFlowCollection())
        case UInt8(ascii: "*")?:
            if properties != nil { throw issue("an alias cannot have an anchor or a tag", at: offset) }
            return try readAlias()
        case UInt8(ascii: ",")?, UInt8(ascii: "]")?, UInt8(ascii: "}")?:
            if properties != nil { return try emptyNode(properties, at: start) }
            throw issue("expected a value; got \(describe(peek()))", at: offset)
        case UInt8(ascii: "\"")?, UInt8(ascii: "'")?:
            let scalar = try readQuoted()
            return try apply(properties, to: try scalarNode(scalar, plain: false, tag: properties?.tag))
        default:
            break
        }
        var scalar = try readScalarStart(flow: true)
        // A plain scalar may go on over lines inside a collection, folded as in a block.
        var folded: [UInt8]?
        while scalar.stop == .lineEnd {
            let resume = (offset, line)
            let breaks = try skipFlowSpace()
            guard let byte = peek(), !Self.isFlowIndicator(byte), byte != UInt8(ascii: "#"), byte != UInt8(ascii: ":") else {
                (offset, line) = resume
                break
            }
            let segment = scanPlainSegment(flow: true)
            var text = folded ?? Array(UnsafeBufferPointer(rebasing: bytes[scalar.range ?? 0..<0]))
            if breaks <= 1 { text.append(0x20) } else { text.append(contentsOf: repeatElement(0x0A, count: breaks - 1)) }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segment.range]))
            folded = text
            scalar.stop = segment.stop
        }
        return try apply(properties, to: try scalarNode(scalar.with(folded), plain: true, tag: properties?.tag))
    }
}
