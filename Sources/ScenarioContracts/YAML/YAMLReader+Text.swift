import Foundation
import ScenarioEngine

/// Quoted scalars, escapes, the core schema's resolution of plain scalars, and the check that
/// the bytes are UTF-8 text.
extension YAMLReader.Scanner {
    /// What a plain scalar stands for.
    enum Resolved {
        case null
        case bool(Bool)
        case number(Double)
        case string
    }

    // MARK: Quoted scalars

    /// A single- or double-quoted scalar; its line breaks fold as YAML says (one break is a space,
    /// each further one a line feed). In JSON, only a double-quoted one without breaks.
    mutating func readQuoted() throws(LoadIssue) -> ScalarStart {
        let open = offset
        let quote = bytes[offset]
        offset += 1
        let contentStart = offset
        var out: [UInt8]?
        var spansLines = false
        while true {
            guard let byte = peek() else {
                throw issue("this quoted string is not closed", at: open, hint: "add the closing \(describe(quote))")
            }
            if byte == quote {
                if quote == UInt8(ascii: "'"), peek(1) == quote {
                    decoding(&out, from: contentStart)
                    out?.append(quote)
                    offset += 2
                    continue
                }
                defer { offset += 1 }
                if let out {
                    return ScalarStart(start: open, quoted: true, text: String(decoding: out, as: UTF8.self), spansLines: spansLines)
                }
                return ScalarStart(start: open, quoted: true, range: contentStart..<offset, spansLines: spansLines)
            }
            if quote == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") {
                decoding(&out, from: contentStart)
                try readEscape(into: &out)
                continue
            }
            if json, byte < 0x20 {
                throw issue(
                    "a JSON string cannot hold \(describe(byte)) as is", at: offset, hint: "write it as an escape such as \\n or \\t")
            }
            if Self.isBlank(byte) || Self.isBreak(byte) {
                let run = offset
                skipBlanks()
                guard Self.isBreak(peek()) else {
                    out?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<offset]))
                    continue
                }
                decoding(&out, from: contentStart, upTo: run)
                spansLines = true
                var breaks = 0
                while Self.isBreak(peek()) {
                    consumeBreak()
                    breaks += 1
                    if column == 0, startsWith("---") || startsWith("..."), Self.isSeparator(peek(3)) {
                        throw issue(
                            "a document marker inside a quoted string", at: offset, hint: "close the string at \(describe(quote)) before it"
                        )
                    }
                    skipBlanks()
                }
                if breaks == 1 { out?.append(0x20) } else { out?.append(contentsOf: repeatElement(0x0A, count: breaks - 1)) }
                continue
            }
            out?.append(byte)
            offset += 1
        }
    }

    /// Starts the decoded copy of a string with what was read as is so far.
    private func decoding(_ out: inout [UInt8]?, from start: Int, upTo end: Int? = nil) {
        guard out == nil else { return }
        out = Array(UnsafeBufferPointer(rebasing: bytes[start..<(end ?? offset)]))
    }

    private mutating func readEscape(into out: inout [UInt8]?) throws(LoadIssue) {
        let start = offset
        offset += 1
        guard let byte = peek() else { throw issue("an escape at the end of the file", at: start) }
        offset += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C,
            UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let value = simple[byte] {
            out?.append(value)
            return
        }
        if byte == UInt8(ascii: "u") {
            try appendScalar(try readUTF16Escape(start: start), into: &out, at: start)
            return
        }
        guard !json else { throw issue("'\\\(Character(Unicode.Scalar(byte)))' is not a JSON escape", at: start) }
        let yamlOnly: [UInt8: UInt32] = [
            UInt8(ascii: "0"): 0, UInt8(ascii: "a"): 7, UInt8(ascii: "v"): 0x0B, UInt8(ascii: "e"): 0x1B, UInt8(ascii: " "): 0x20,
            0x09: 0x09, UInt8(ascii: "N"): 0x85, UInt8(ascii: "_"): 0xA0, UInt8(ascii: "L"): 0x2028, UInt8(ascii: "P"): 0x2029,
        ]
        if let value = yamlOnly[byte] {
            try appendScalar(value, into: &out, at: start)
        } else if byte == UInt8(ascii: "x") {
            try appendScalar(try readHex(2, start: start), into: &out, at: start)
        } else if byte == UInt8(ascii: "U") {
            try appendScalar(try readHex(8, start: start), into: &out, at: start)
        } else if Self.isBreak(byte) {
            // An escaped line break joins the lines with nothing between them.
            offset -= 1
            consumeBreak()
            skipBlanks()
        } else {
            throw issue("'\\\(describe(byte))' is not an escape", at: start, hint: "write '\\\\' for a backslash")
        }
    }

    /// `\uXXXX`, with a following `\uXXXX` when it is the high half of a surrogate pair.
    private mutating func readUTF16Escape(start: Int) throws(LoadIssue) -> UInt32 {
        let high = try readHex(4, start: start)
        guard (0xD800...0xDBFF).contains(high) else {
            if (0xDC00...0xDFFF).contains(high) { throw issue("a lone low surrogate in a \\u escape", at: start) }
            return high
        }
        guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
            throw issue("a high surrogate in a \\u escape with no low one after it", at: start)
        }
        offset += 2
        let low = try readHex(4, start: start)
        guard (0xDC00...0xDFFF).contains(low) else { throw issue("a high surrogate in a \\u escape with no low one after it", at: start) }
        return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
    }

    private mutating func readHex(_ digits: Int, start: Int) throws(LoadIssue) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let byte = peek(), let digit = byte.hexDigitValue else {
                throw issue("the escape needs \(digits) hexadecimal digits", at: start)
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    private func appendScalar(_ value: UInt32, into out: inout [UInt8]?, at start: Int) throws(LoadIssue) {
        guard let scalar = Unicode.Scalar(value) else { throw issue("the escape names no Unicode character", at: start) }
        out?.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    // MARK: The core schema

    /// What a plain scalar stands for in the YAML 1.2 core schema.
    static func resolve(_ text: UnsafeBufferPointer<UInt8>) -> Resolved {
        guard let first = text.first else { return .null }
        switch first {
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "~"):
            return ["null", "Null", "NULL", "~"].contains(where: { equals(text, $0) }) ? .null : .string
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            return ["true", "True", "TRUE"].contains(where: { equals(text, $0) }) ? .bool(true) : .string
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            return ["false", "False", "FALSE"].contains(where: { equals(text, $0) }) ? .bool(false) : .string
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return number(text).map(Resolved.number) ?? .string
        default:
            return .string
        }
    }

    private static func equals(_ text: UnsafeBufferPointer<UInt8>, _ word: String) -> Bool {
        text.count == word.utf8.count && zip(text, word.utf8).allSatisfy { $0 == $1 }
    }

    /// A core-schema number: decimal, `0o` octal and `0x` hexadecimal integers, decimals with an
    /// optional exponent, `.inf` and `.nan`.
    private static func number(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let string = String(decoding: text, as: UTF8.self)
        if string.hasPrefix("0x") { return UInt64(string.dropFirst(2), radix: 16).map { Double($0) } }
        if string.hasPrefix("0o") { return UInt64(string.dropFirst(2), radix: 8).map { Double($0) } }
        let unsigned = string.hasPrefix("-") || string.hasPrefix("+") ? string.dropFirst() : Substring(string)
        switch unsigned {
        case ".inf", ".Inf", ".INF": return string.hasPrefix("-") ? -.infinity : .infinity
        case ".nan", ".NaN", ".NAN": return string == unsigned ? .nan : nil
        default: break
        }
        // [0-9]+ ( . [0-9]* )? or . [0-9]+, then ( [eE] [-+]? [0-9]+ )?
        var digits = 0
        var index = unsigned.utf8.startIndex
        let utf8 = unsigned.utf8
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        while index < utf8.endIndex, isDigit(utf8[index]) {
            digits += 1
            index = utf8.index(after: index)
        }
        if index < utf8.endIndex, utf8[index] == UInt8(ascii: ".") {
            index = utf8.index(after: index)
            while index < utf8.endIndex, isDigit(utf8[index]) {
                digits += 1
                index = utf8.index(after: index)
            }
        }
        guard digits > 0 else { return nil }
        if index < utf8.endIndex, utf8[index] == UInt8(ascii: "e") || utf8[index] == UInt8(ascii: "E") {
            index = utf8.index(after: index)
            if index < utf8.endIndex, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
                index = utf8.index(after: index)
            }
            var exponent = 0
            while index < utf8.endIndex, isDigit(utf8[index]) {
                exponent += 1
                index = utf8.index(after: index)
            }
            guard exponent > 0 else { return nil }
        }
        guard index == utf8.endIndex else { return nil }
        return Double(string.hasPrefix("+") ? String(string.dropFirst()) : string)
    }

    // MARK: Encoding

    /// UTF-8 text with no control characters but tabs and line breaks; a byte-order mark is skipped.
    mutating func checkEncoding() throws(LoadIssue) {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw issue("the document is UTF-16; save it as UTF-8", at: 0)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
        var index = offset
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F {
                    throw issue(String(format: "the control character U+%04X cannot stand in the document", byte), at: index)
                }
                index += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0
            guard length > 0, byte < 0xF5, index + length <= bytes.count,
                (1..<length).allSatisfy({ bytes[index + $0] & 0xC0 == 0x80 }),
                !(byte == 0xE0 && bytes[index + 1] < 0xA0), !(byte == 0xED && bytes[index + 1] >= 0xA0),
                !(byte == 0xF0 && bytes[index + 1] < 0x90), !(byte == 0xF4 && bytes[index + 1] >= 0x90)
            else {
                throw issue("the document is not UTF-8 text here", at: index, hint: "save it as UTF-8")
            }
            index += length
        }
    }
}
