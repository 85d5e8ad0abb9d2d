/// Where the scanner is: whitespace and lines, positions and paths for issues, byte classes.
extension JSONTextParser.Scanner {
    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09:
                offset += 1
            case 0x0A:
                offset += 1
                newLine()
            case 0x0D:
                offset += 1
                if offset < bytes.count, bytes[offset] == 0x0A { offset += 1 }
                newLine()
            default:
                return
            }
        }
    }

    mutating func newLine() {
        line += 1
        lineStart = offset
        columnCacheOffset = offset
        columnCacheValue = 1
    }

    /// The 1-based line and column of `target`, which must be on the current line.
    mutating func position(of target: Int) -> (line: Int, column: Int) {
        let target = min(max(target, lineStart), bytes.count)
        if target < columnCacheOffset {
            columnCacheOffset = lineStart
            columnCacheValue = 1
        }
        var column = columnCacheValue
        var index = columnCacheOffset
        while index < target {
            // Continuation bytes (10xxxxxx) do not start a character.
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        columnCacheOffset = target
        columnCacheValue = column
        return (line, column)
    }

    mutating func issue(_ message: String, at target: Int) -> LoadIssue {
        let (line, column) = position(of: target)
        return LoadIssue(
            location: ScenarioLocation(file: file, line: line, column: column, path: renderedPath()),
            message: message)
    }

    func renderedPath() -> String {
        var text = "$"
        for component in path {
            switch component {
            case .key(let key): text += JSONPath.member(key)
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte == 0x20 { return "space" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    func describeRaw(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "0x" + String(byte, radix: 16)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
    }
}
