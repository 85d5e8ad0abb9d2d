import ScenarioEngine

/// Literal (`|`) and folded (`>`) block scalars, with their chomping (`-` strip, `+` keep) and
/// indentation (`1` to `9`) indicators.
extension YAMLReader.Scanner {
    private enum Chomping {
        case strip, clip, keep
    }

    /// One line of a block scalar: its content after the indentation, or an empty line.
    private struct ContentLine {
        var range: Range<Int>
        var isEmpty: Bool
    }

    mutating func parseBlockScalar(parentIndent: Int, properties: Properties?) throws(LoadIssue) -> DocumentTree.Node {
        let start = properties?.start ?? offset
        let literal = peek() == UInt8(ascii: "|")
        offset += 1
        var chomping = Chomping.clip
        var indicator: Int?
        for _ in 0..<2 {
            switch peek() {
            case UInt8(ascii: "-")?, UInt8(ascii: "+")?:
                chomping = peek() == UInt8(ascii: "-") ? .strip : .keep
                offset += 1
            case let digit? where digit >= UInt8(ascii: "1") && digit <= UInt8(ascii: "9"):
                indicator = Int(digit - UInt8(ascii: "0"))
                offset += 1
            case UInt8(ascii: "0")?:
                throw issue("a block scalar's indentation indicator is 1 to 9", at: offset)
            default:
                break
            }
        }
        let header = offset
        skipBlanks()
        if peek() == UInt8(ascii: "#"), offset > header {
            skipToLineEnd()
        } else if !atEnd, !Self.isBreak(peek()) {
            throw issue("a block scalar's first line takes only '|' or '>', its indicators and a comment", at: offset)
        }
        var indent = indicator.map { max(parentIndent, 0) + $0 }
        var lines: [ContentLine] = []
        var endsWithBreak = false
        while !atEnd {
            let beforeBreak = (offset, line)
            consumeBreak()
            if atEnd {
                endsWithBreak = true
                break
            }
            let lineStart = offset
            while peek() == UInt8(ascii: " ") { offset += 1 }
            let spaces = offset - lineStart
            if atEnd || Self.isBreak(peek()) {
                // Spaces beyond the indentation of an empty line are content of a literal.
                let contentStart = lineStart + min(spaces, indent ?? spaces)
                lines.append(ContentLine(range: contentStart..<offset, isEmpty: spaces <= (indent ?? spaces)))
                endsWithBreak = true
                continue
            }
            if indent == nil {
                if spaces <= parentIndent {
                    (offset, line) = beforeBreak
                    break
                }
                indent = spaces
            }
            guard let indent, spaces >= indent else {
                (offset, line) = beforeBreak
                break
            }
            skipToLineEnd()
            lines.append(ContentLine(range: (lineStart + indent)..<offset, isEmpty: false))
            endsWithBreak = false
        }
        let text = compose(lines, literal: literal, chomping: chomping, endsWithBreak: endsWithBreak || !atEnd)
        try skipToNextContentLine()
        let node = addString(text, at: start)
        if let tag = properties?.tag, tag != .string, tag != .nonSpecific {
            throw issue("a block scalar is a string; it cannot be tagged !!\(tag.rawValue)", at: start)
        }
        return try apply(properties, to: node)
    }

    /// The scalar's value: lines kept (literal) or folded, then its final line breaks chomped.
    private func compose(_ lines: [ContentLine], literal: Bool, chomping: Chomping, endsWithBreak: Bool) -> String {
        let lastContent = lines.lastIndex { !$0.isEmpty }
        var out: [UInt8] = []
        if let lastContent {
            var pendingBreaks = 0
            var previousMoreIndented = false
            var first = true
            for line in lines[...lastContent] {
                if line.isEmpty {
                    pendingBreaks += 1
                    continue
                }
                let moreIndented = !literal && Self.isBlank(bytes[line.range].first)
                if first {
                    out.append(contentsOf: repeatElement(0x0A, count: pendingBreaks))
                } else if literal || moreIndented || previousMoreIndented {
                    out.append(contentsOf: repeatElement(0x0A, count: pendingBreaks + 1))
                } else if pendingBreaks == 0 {
                    out.append(0x20)
                } else {
                    out.append(contentsOf: repeatElement(0x0A, count: pendingBreaks))
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[line.range]))
                previousMoreIndented = moreIndented
                pendingBreaks = 0
                first = false
            }
        }
        let trailingEmpty = lines.count - ((lastContent ?? -1) + 1)
        switch chomping {
        case .strip:
            break
        case .clip:
            if lastContent != nil, endsWithBreak { out.append(0x0A) }
        case .keep:
            let breaks = lastContent == nil ? trailingEmpty : trailingEmpty + (endsWithBreak || trailingEmpty > 0 ? 1 : 0)
            out.append(contentsOf: repeatElement(0x0A, count: breaks))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
