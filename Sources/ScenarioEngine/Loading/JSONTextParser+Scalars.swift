import Foundation

/// Numbers and strings: the scalar values, byte by byte.
extension JSONTextParser.Scanner {
    mutating func parseNumber() throws(LoadIssue) -> Double {
        let start = offset
        if bytes[offset] == UInt8(ascii: "-") {
            offset += 1
        }
        guard offset < bytes.count, isDigit(bytes[offset]) else {
            throw issue("expected a digit after '-'", at: offset)
        }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < bytes.count, isDigit(bytes[offset]) {
                throw issue("numbers cannot have leading zeros", at: start)
            }
        } else {
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        var isInteger = true
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else {
                throw issue("expected a digit after the decimal point", at: offset)
            }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            guard offset < bytes.count, isDigit(bytes[offset]) else {
                throw issue("expected a digit in the exponent", at: offset)
            }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, isIdentifierByte(bytes[offset]) || bytes[offset] == UInt8(ascii: ".") {
            throw issue("unexpected \(describe(bytes[offset])) in number", at: offset)
        }
        // Integers of up to 15 digits are exact in a Double: no text to make for them.
        if isInteger, offset - start <= 15 {
            var value = 0
            for index in (bytes[start] == UInt8(ascii: "-") ? start + 1 : start)..<offset {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            // `-0` is negative zero, as Double("-0") says.
            return bytes[start] == UInt8(ascii: "-") ? -Double(value) : Double(value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw issue("number \(text) is too large", at: start)
        }
        return value
    }

    mutating func parseString() throws(LoadIssue) -> String {
        let start = offset
        offset += 1  // "
        // Only a string with escapes is copied into a buffer; others are read in place.
        var buffer: [UInt8]?
        var chunkStart = offset
        var ascii = true
        while true {
            guard offset < bytes.count else {
                throw issue("the file ends inside this string; add the closing '\"', or save or export the file whole", at: start)
            }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let end = offset
                offset += 1
                let text: String?
                if var escaped = buffer {
                    escaped.append(contentsOf: bytes[chunkStart..<end])
                    text = escaped.withUnsafeBufferPointer { Self.string($0, 0..<$0.count, ascii: ascii) }
                } else {
                    text = Self.string(bytes, chunkStart..<end, ascii: ascii)
                }
                guard let text else {
                    throw issue(
                        "string is not valid UTF-8; save the file as UTF-8 (it may be in a legacy encoding such as Windows-1252)", at: start
                    )
                }
                return text
            }
            if byte == UInt8(ascii: "\\") {
                var escaped = buffer ?? []
                buffer = nil
                escaped.append(contentsOf: bytes[chunkStart..<offset])
                try parseEscape(into: &escaped)
                buffer = escaped
                chunkStart = offset
                continue
            }
            if byte >= 0x80 { ascii = false }
            if byte < 0x20 {
                if byte == 0x0A || byte == 0x0D {
                    throw issue(
                        "unterminated string; add the closing '\"' (a string cannot span lines; write \\n for a line break)",
                        at: start)
                }
                throw issue(
                    "control character \(describe(byte)) in string; escape it (\\t, \\u00XX)", at: offset)
            }
            offset += 1
        }
    }

    /// The text of `bytes[range]`, or `nil` when it is not UTF-8 (`ascii` says it is
    /// all ASCII, so it needs no check).
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, ascii: Bool) -> String? {
        let part = UnsafeBufferPointer(rebasing: bytes[range])
        guard ascii || isValidUTF8(part) else { return nil }
        return String(decoding: part, as: UTF8.self)
    }

    /// Whether `bytes` are well-formed UTF-8: no stray continuation bytes, overlong forms,
    /// surrogates or values past U+10FFFF.
    private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return false
            }
            guard index + length <= count, (low...high).contains(bytes[index + 1]) else { return false }
            for next in (index + 2)..<(index + length) where bytes[next] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(LoadIssue) {
        let escapeStart = offset
        offset += 1  // backslash
        guard offset < bytes.count else {
            throw issue("unterminated escape sequence", at: escapeStart)
        }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let first = try parseHex4(escapeStart: escapeStart)
            var scalarValue = first
            if (0xD800...0xDBFF).contains(first) {
                let lowStart = offset
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
                else {
                    throw issue(
                        "unpaired high surrogate in \\u escape; follow it with a low surrogate (\\uDC00-\\uDFFF)", at: escapeStart)
                }
                offset += 2
                let second = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw issue(
                        "unpaired high surrogate in \\u escape; follow it with a low surrogate (\\uDC00-\\uDFFF)", at: escapeStart)
                }
                scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw issue("unpaired low surrogate in \\u escape", at: escapeStart)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw issue("invalid \\u escape", at: escapeStart)
            }
            buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw issue(
                "invalid escape '\\\(describeRaw(byte))'; use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX",
                at: escapeStart)
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(LoadIssue) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count, let digit = bytes[offset].hexDigitValue else {
                throw issue("\\u must be followed by four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }
}
