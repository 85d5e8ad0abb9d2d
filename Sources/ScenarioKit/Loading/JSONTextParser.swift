import Foundation

/// A strict RFC 8259 JSON parser that remembers where every value and key was written.
///
/// It reads UTF-8 bytes, keeps object members in written order, rejects duplicate keys,
/// trailing commas, comments, trailing content and nesting deeper than ``maximumDepth``,
/// and reports the first syntax error as a ``LoadIssue`` at its exact line and column.
/// Lines and columns are 1-based; columns count characters (Unicode scalars), not bytes.
public struct JSONTextParser: Sendable {
    /// How deeply arrays and objects may nest.
    public static let maximumDepth = 512

    /// The bytes to parse.
    public let data: Data
    /// The file name used in issue locations.
    public let file: String

    /// Creates a parser for `data`, naming `file` in issues.
    public init(data: Data, file: String) {
        self.data = data
        self.file = file
    }

    /// Parses the whole input as one JSON value.
    /// - Throws: a ``LoadIssue`` at the first syntax error.
    public func parseDocument() throws(LoadIssue) -> JSONNode {
        let file = file
        let result = data.withUnsafeBytes { raw in
            Result { () throws(LoadIssue) -> JSONNode in
                var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self), file: file)
                return try scanner.parseDocument()
            }
        }
        return try result.get()
    }

    /// Parses `bytes` as one JSON value, but hands each element of the array at `keys` (object
    /// keys from the root, such as `["log", "entries"]`) to `element` with its index as soon as it
    /// is read, instead of keeping it: that array's node holds no elements. A large document is
    /// then never held as one tree, and `element` may stop the parse early by throwing.
    static func parse(
        bytes: [UInt8], file: String, streaming keys: [String],
        element: @escaping (JSONNode, Int) throws(LoadIssue) -> Void
    ) throws(LoadIssue) -> JSONNode {
        try parse(bytes: bytes, file: file, streaming: [keys]) { _, node, index throws(LoadIssue) in try element(node, index) }
    }

    /// As ``parse(bytes:file:streaming:element:)`` for several arrays: `element` is told which
    /// of `arrays` (by its position in the list) each element belongs to.
    static func parse(
        bytes: [UInt8], file: String, streaming arrays: [[String]],
        element: @escaping (Int, JSONNode, Int) throws(LoadIssue) -> Void
    ) throws(LoadIssue) -> JSONNode {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(LoadIssue) -> JSONNode in
                try parse(buffer: buffer, file: file, streaming: arrays, element: element)
            }
        }
        return try result.get()
    }

    /// As ``parse(bytes:file:streaming:element:)`` over bytes the caller keeps alive, such as a
    /// mapped file; `read` is told how far the parse has come after each streamed element,
    /// so the caller may let go of what lies before.
    static func parse(
        buffer: UnsafeBufferPointer<UInt8>, file: String, streaming arrays: [[String]],
        element: @escaping (Int, JSONNode, Int) throws(LoadIssue) -> Void, read: ((Int) -> Void)? = nil
    ) throws(LoadIssue) -> JSONNode {
        var scanner = Scanner(bytes: buffer, file: file)
        scanner.streamArrays = arrays
        scanner.streamElement = element
        scanner.readUpTo = read
        return try scanner.parseDocument()
    }
}

extension JSONTextParser {
    /// The parsing state: a cursor over the bytes plus what is needed to report positions.
    private struct Scanner {
        private enum PathComponent {
            case key(String)
            case index(Int)
        }

        let bytes: UnsafeBufferPointer<UInt8>
        let file: String
        var offset = 0
        var line = 1
        var lineStart = 0
        // Columns are counted incrementally from the last position asked for, so that long
        // single-line documents (minified bodies) stay linear.
        var columnCacheOffset = 0
        var columnCacheValue = 1
        private var path: [PathComponent] = []
        var depth = 0
        /// The arrays whose elements go to `streamElement` instead of into the tree.
        var streamArrays: [[String]] = []
        var streamElement: ((Int, JSONNode, Int) throws(LoadIssue) -> Void)?
        /// Told the offset reached after each streamed element.
        var readUpTo: ((Int) -> Void)?
        /// The members and elements of the containers being read, one list per depth, kept
        /// for the next container at that depth.
        private var memberLists: [[JSONNode.Member]] = []
        private var elementLists: [[JSONNode]] = []

        init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
            self.bytes = bytes
            self.file = file
        }

        mutating func parseDocument() throws(LoadIssue) -> JSONNode {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                offset = 3
                lineStart = 3
                columnCacheOffset = 3
            }
            skipWhitespace()
            guard offset < bytes.count else {
                throw issue("the file is empty; expected a JSON value", at: offset)
            }
            let node = try parseValue()
            skipWhitespace()
            if offset < bytes.count {
                throw issue("unexpected \(describe(bytes[offset])) after the JSON value; a file holds exactly one value", at: offset)
            }
            return node
        }

        // MARK: Values

        private mutating func parseValue() throws(LoadIssue) -> JSONNode {
            skipWhitespace()
            let start = offset
            guard offset < bytes.count else {
                throw issue("unexpected end of input; expected a value", at: offset)
            }
            let (line, column) = position(of: start)
            switch bytes[offset] {
            case UInt8(ascii: "{"):
                return try parseObject(line: line, column: column)
            case UInt8(ascii: "["):
                return try parseArray(line: line, column: column)
            case UInt8(ascii: "\""):
                return JSONNode(value: .string(try parseString()), line: line, column: column)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return JSONNode(value: .number(try parseNumber()), line: line, column: column)
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return JSONNode(value: .bool(true), line: line, column: column)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return JSONNode(value: .bool(false), line: line, column: column)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return JSONNode(value: .null, line: line, column: column)
            case UInt8(ascii: "'"):
                throw issue("strings must use double quotes, not single quotes", at: offset)
            case UInt8(ascii: "/"):
                throw issue("comments are not allowed in JSON", at: offset)
            default:
                throw issue("unexpected \(describe(bytes[offset])); expected a value", at: offset)
            }
        }

        private mutating func parseObject(line: Int, column: Int) throws(LoadIssue) -> JSONNode {
            try enterContainer()
            offset += 1  // {
            let level = depth
            if memberLists.count <= level { memberLists.append(contentsOf: Array(repeating: [], count: level + 1 - memberLists.count)) }
            memberLists[level].removeAll(keepingCapacity: true)
            // Most objects have a few keys: a duplicate is looked for among them, and only
            // a large object gets an index (hashing every key costs more than it saves).
            var seen: [String: Int]?
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                depth -= 1
                return JSONNode(value: .object(JSONObject()), line: line, column: column, content: .object([]))
            }
            while true {
                skipWhitespace()
                guard offset < bytes.count else {
                    throw issue("unexpected end of input; expected a key in double quotes", at: offset)
                }
                guard bytes[offset] == UInt8(ascii: "\"") else {
                    if bytes[offset] == UInt8(ascii: "}"), !memberLists[level].isEmpty {
                        throw issue("trailing comma before '}'; remove the comma", at: offset)
                    }
                    throw issue("expected a key in double quotes; got \(describe(bytes[offset]))", at: offset)
                }
                let keyOffset = offset
                let (keyLine, keyColumn) = position(of: keyOffset)
                let key = try parseString()
                if let first = Self.index(of: key, in: memberLists[level], seen: &seen) {
                    let written = memberLists[level][first]
                    throw issue(
                        "duplicate key '\(key)' (first written at line \(written.keyLine), column \(written.keyColumn)); keep one",
                        at: keyOffset)
                }
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                    throw issue("expected ':' after object key '\(key)'", at: offset)
                }
                offset += 1
                path.append(.key(key))
                let value = try parseValue()
                path.removeLast()
                memberLists[level].append(JSONNode.Member(key: key, keyLine: keyLine, keyColumn: keyColumn, value: value))
                skipWhitespace()
                guard offset < bytes.count else {
                    throw issue("unexpected end of input; expected ',' or '}' after object member", at: offset)
                }
                switch bytes[offset] {
                case UInt8(ascii: ","):
                    offset += 1
                case UInt8(ascii: "}"):
                    offset += 1
                    depth -= 1
                    let members = Self.copy(memberLists[level])
                    let object = JSONObject(unchecked: members.map { (key: $0.key, value: $0.value.value) })
                    return JSONNode(value: .object(object), line: line, column: column, content: .object(members))
                default:
                    throw issue("expected ',' or '}' after object member", at: offset)
                }
            }
        }

        private mutating func parseArray(line: Int, column: Int) throws(LoadIssue) -> JSONNode {
            try enterContainer()
            offset += 1  // [
            let level = depth
            if elementLists.count <= level { elementLists.append(contentsOf: Array(repeating: [], count: level + 1 - elementLists.count)) }
            elementLists[level].removeAll(keepingCapacity: true)
            let streamedArray = streamedArray()
            let streamed = streamedArray != nil ? streamElement : nil
            var count = 0
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                depth -= 1
                return JSONNode(value: .array([]), line: line, column: column, content: .array([]))
            }
            while true {
                skipWhitespace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "]"), count > 0 {
                    throw issue("trailing comma before ']'; remove the comma", at: offset)
                }
                path.append(.index(count))
                let element = try parseValue()
                path.removeLast()
                if let streamed, let streamedArray {
                    try streamed(streamedArray, element, count)
                    readUpTo?(offset)
                } else {
                    elementLists[level].append(element)
                }
                count += 1
                skipWhitespace()
                guard offset < bytes.count else {
                    throw issue("unexpected end of input; expected ',' or ']' after array element", at: offset)
                }
                switch bytes[offset] {
                case UInt8(ascii: ","):
                    offset += 1
                case UInt8(ascii: "]"):
                    offset += 1
                    depth -= 1
                    let elements = Self.copy(elementLists[level])
                    return JSONNode(
                        value: .array(elements.map(\.value)), line: line, column: column, content: .array(elements))
                default:
                    throw issue("expected ',' or ']' after array element", at: offset)
                }
            }
        }

        /// A list of exactly the size of `list`: made once, where growing it as it was read
        /// would have made it several times over.
        private static func copy<Element>(_ list: [Element]) -> [Element] {
            // An empty list is the process's one empty array, whose header must not be written to.
            guard !list.isEmpty else { return [] }
            return list.withUnsafeBufferPointer { source in
                [Element](unsafeUninitializedCapacity: source.count) { target, count in
                    _ = target.initialize(fromContentsOf: source)
                    count = source.count
                }
            }
        }

        /// Where `key` is among `members` already read; `seen` indexes them once there are many.
        private static func index(of key: String, in members: [JSONNode.Member], seen: inout [String: Int]?) -> Int? {
            if members.count < 16 {
                return members.firstIndex { $0.key == key }
            }
            if seen == nil {
                var index: [String: Int] = [:]
                for (position, member) in members.enumerated() { index[member.key] = position }
                seen = index
            }
            if let found = seen?[key] { return found }
            seen?[key] = members.count
            return nil
        }

        /// Which of the streamed arrays the array about to be read is, if any.
        private func streamedArray() -> Int? {
            arrays: for (number, keys) in streamArrays.enumerated() where path.count == keys.count {
                for (component, key) in zip(path, keys) {
                    guard case .key(let name) = component, name == key else { continue arrays }
                }
                return number
            }
            return nil
        }

        private mutating func enterContainer() throws(LoadIssue) {
            depth += 1
            if depth > JSONTextParser.maximumDepth {
                throw issue("arrays and objects nest deeper than \(JSONTextParser.maximumDepth) levels", at: offset)
            }
        }

        // MARK: Scalars

        private mutating func expectLiteral(_ literal: String) throws(LoadIssue) {
            let start = offset
            let expected = Array(literal.utf8)
            let count = expected.count
            guard start + count <= bytes.count, bytes[start..<(start + count)].elementsEqual(expected) else {
                throw issue("invalid literal; expected a value such as true, false, null, a number or a string", at: start)
            }
            offset += count
            if offset < bytes.count, isIdentifierByte(bytes[offset]) {
                throw issue("invalid literal; expected a value such as true, false, null, a number or a string", at: start)
            }
        }

        private mutating func parseNumber() throws(LoadIssue) -> Double {
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

        private mutating func parseString() throws(LoadIssue) -> String {
            let start = offset
            offset += 1  // "
            // Only a string with escapes is copied into a buffer; others are read in place.
            var buffer: [UInt8]?
            var chunkStart = offset
            var ascii = true
            while true {
                guard offset < bytes.count else {
                    throw issue("unterminated string; add the closing '\"'", at: start)
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
                    guard let text else { throw issue("string is not valid UTF-8", at: start) }
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
                guard offset < bytes.count, let digit = hexValue(bytes[offset]) else {
                    throw issue("\\u must be followed by four hex digits", at: escapeStart)
                }
                value = value << 4 | digit
                offset += 1
            }
            return value
        }

        // MARK: Positions and issues

        private mutating func skipWhitespace() {
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

        private mutating func newLine() {
            line += 1
            lineStart = offset
            columnCacheOffset = offset
            columnCacheValue = 1
        }

        /// The 1-based line and column of `target`, which must be on the current line.
        private mutating func position(of target: Int) -> (line: Int, column: Int) {
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

        private mutating func issue(_ message: String, at target: Int) -> LoadIssue {
            let (line, column) = position(of: target)
            return LoadIssue(
                location: ScenarioLocation(file: file, line: line, column: column, path: renderedPath()),
                message: message)
        }

        private func renderedPath() -> String {
            var text = "$"
            for component in path {
                switch component {
                case .key(let key): text += JSONPath.member(key)
                case .index(let index): text += "[\(index)]"
                }
            }
            return text
        }

        private func describe(_ byte: UInt8) -> String {
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            if byte == 0x20 { return "space" }
            let hex = String(byte, radix: 16, uppercase: true)
            return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
        }

        private func describeRaw(_ byte: UInt8) -> String {
            byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "0x" + String(byte, radix: 16)
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        private func isIdentifierByte(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
        }

        private func hexValue(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
            default: nil
            }
        }
    }
}
