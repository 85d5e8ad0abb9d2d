import Foundation

/// A strict RFC 8259 JSON parser that remembers where every value and key was written.
///
/// It reads UTF-8 bytes, keeps object members in written order, rejects duplicate keys,
/// trailing commas, comments, trailing content and nesting deeper than ``maximumDepth``,
/// and reports the first syntax error as a ``LoadIssue`` at its exact line and column.
/// Lines and columns are 1-based; columns count characters (Unicode scalars), not bytes.
package struct JSONTextParser: Sendable {
    /// How deeply arrays and objects may nest.
    package static let maximumDepth = 512

    /// The bytes to parse.
    package let data: Data
    /// The file name used in issue locations.
    package let file: String

    /// Creates a parser for `data`, naming `file` in issues.
    package init(data: Data, file: String) {
        self.data = data
        self.file = file
    }

    /// Parses the whole input as one JSON value.
    /// - Throws: a ``LoadIssue`` at the first syntax error.
    package func parseDocument() throws(LoadIssue) -> JSONNode {
        let file = file
        let result = data.withUnsafeBytes { raw in
            Result { () throws(LoadIssue) -> JSONNode in
                var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self), file: file)
                return try scanner.parseTree()
            }
        }
        return try result.get()
    }

    /// Parses `bytes` as one JSON value, but hands each element of the array at `keys` (object
    /// keys from the root, such as `["log", "entries"]`) to `element` with its index as soon as it
    /// is read, as a tree of its own, instead of keeping it: that array's node holds no elements.
    /// A large document is then never held as one tree, and `element` may stop the parse early
    /// by throwing.
    package static func parse(
        bytes: [UInt8], file: String, streaming keys: [String],
        element: @escaping (JSONNode, Int) throws(LoadIssue) -> Void
    ) throws(LoadIssue) -> JSONNode {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(LoadIssue) -> JSONNode in
                try parse(buffer: buffer, file: file, streaming: [keys]) { _, node, index throws(LoadIssue) in try element(node, index) }
            }
        }
        return try result.get()
    }

    /// As ``parse(bytes:file:streaming:element:)`` for several arrays, over bytes the caller
    /// keeps alive, such as a mapped file: `element` is told which of `arrays` (by its position
    /// in the list) each element belongs to, and `read` how far the parse has come after each
    /// streamed element, so the caller may let go of what lies before.
    static func parse(
        buffer: UnsafeBufferPointer<UInt8>, file: String, streaming arrays: [[String]],
        element: @escaping (Int, JSONNode, Int) throws(LoadIssue) -> Void, read: ((Int) -> Void)? = nil
    ) throws(LoadIssue) -> JSONNode {
        var scanner = Scanner(bytes: buffer, file: file)
        scanner.streamArrays = arrays
        scanner.streamElement = element
        scanner.readUpTo = read
        return try scanner.parseTree()
    }
}

extension JSONTextParser {
    /// The parsing state: a cursor over the bytes, the tree being built, and what is needed to
    /// report positions.
    struct Scanner {
        enum PathComponent {
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
        var path: [PathComponent] = []
        var depth = 0
        /// The tree being read: strings decoded and every node placed, as the bytes are not kept.
        var builder = DocumentTree.Builder()
        /// The arrays whose elements go to `streamElement` instead of into the tree.
        var streamArrays: [[String]] = []
        var streamElement: ((Int, JSONNode, Int) throws(LoadIssue) -> Void)?
        /// Told the offset reached after each streamed element.
        var readUpTo: ((Int) -> Void)?
        /// The nodes of the last streamed element: room reserved for the next one.
        private var streamedNodes = 0

        init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
            self.bytes = bytes
            self.file = file
        }

        /// Parses the whole input into a tree, and gives its top node.
        mutating func parseTree() throws(LoadIssue) -> JSONNode {
            let root = try parseDocument()
            return JSONNode(tree: builder.finish(file: file, root: root))
        }

        private mutating func parseDocument() throws(LoadIssue) -> DocumentTree.Node {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                offset = 3
                lineStart = 3
                columnCacheOffset = 3
            }
            if let encoding = wideEncoding() {
                throw issue("the file is \(encoding); JSON files are read as UTF-8: save it as UTF-8", at: 0)
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

        /// UTF-16 and UTF-32 text, by its byte-order mark or by the zero bytes around its first
        /// ASCII character (what editors on Windows and some exporters write).
        private func wideEncoding() -> String? {
            let head = Array(bytes.prefix(4))
            if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
                return "UTF-32"
            }
            if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) { return "UTF-16" }
            guard head.count == 4 else { return nil }
            if head[0] == 0, head[1] == 0, head[2] == 0, head[3] != 0 { return "UTF-32" }
            if head[0] != 0, head[1] == 0, head[2] == 0, head[3] == 0 { return "UTF-32" }
            if head[0] == 0, head[1] != 0, head[2] == 0 { return "UTF-16" }
            if head[0] != 0, head[1] == 0, head[2] != 0, head[3] == 0 { return "UTF-16" }
            return nil
        }

        // MARK: Values

        /// `node`, just added, placed at `line`, `column`.
        private mutating func placed(_ node: DocumentTree.Node, _ line: Int, _ column: Int) -> DocumentTree.Node {
            builder.place(line: line, column: column)
            return node
        }

        private mutating func parseValue() throws(LoadIssue) -> DocumentTree.Node {
            skipWhitespace()
            let start = offset
            guard offset < bytes.count else {
                throw issue("the file ends early; expected a value: save or export it whole", at: offset)
            }
            let (line, column) = position(of: start)
            switch bytes[offset] {
            case UInt8(ascii: "{"):
                return try parseObject(start: start, line: line, column: column)
            case UInt8(ascii: "["):
                return try parseArray(start: start, line: line, column: column)
            case UInt8(ascii: "\""):
                let text = try parseString()
                return placed(builder.addString(text, at: start), line, column)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let number = try parseNumber()
                return placed(builder.addNumber(number, at: start), line, column)
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return placed(builder.addBool(true, at: start), line, column)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return placed(builder.addBool(false, at: start), line, column)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return placed(builder.addNull(at: start), line, column)
            case UInt8(ascii: "'"):
                throw issue("strings must use double quotes, not single quotes", at: offset)
            case UInt8(ascii: "/"):
                throw issue("comments are not allowed in JSON", at: offset)
            default:
                throw issue("unexpected \(describe(bytes[offset])); expected a value", at: offset)
            }
        }

        private mutating func parseObject(start: Int, line: Int, column: Int) throws(LoadIssue) -> DocumentTree.Node {
            try enterContainer()
            offset += 1  // {
            let first = builder.openCount
            // Most objects have a few keys: a duplicate is looked for among them, and only
            // a large object gets an index (hashing every key costs more than it saves).
            var seen: [String: DocumentTree.Node]?
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                depth -= 1
                return placed(builder.close(.object, from: first, at: start), line, column)
            }
            while true {
                skipWhitespace()
                guard offset < bytes.count else {
                    throw issue("the file ends early; expected a key in double quotes: save or export it whole", at: offset)
                }
                guard bytes[offset] == UInt8(ascii: "\"") else {
                    if bytes[offset] == UInt8(ascii: "}"), builder.openCount > first {
                        throw issue("trailing comma before '}'; remove the comma", at: offset)
                    }
                    throw issue("expected a key in double quotes; got \(describe(bytes[offset]))", at: offset)
                }
                let keyOffset = offset
                let (keyLine, keyColumn) = position(of: keyOffset)
                let key = try parseString()
                if let written = earlierKey(key, from: first, seen: &seen) {
                    let place = builder.position(written) ?? (line: 1, column: 1)
                    throw issue(
                        "duplicate key '\(key)' (first written at line \(place.line), column \(place.column)); keep one", at: keyOffset)
                }
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                    throw issue("expected ':' after object key '\(key)'", at: offset)
                }
                offset += 1
                let keyNode = placed(builder.addString(key, at: keyOffset), keyLine, keyColumn)
                seen?[key] = keyNode
                builder.addChild(keyNode)
                path.append(.key(key))
                builder.addChild(try parseValue())
                path.removeLast()
                skipWhitespace()
                guard offset < bytes.count else {
                    throw issue("the file ends early; expected ',' or '}' after object member: save or export it whole", at: offset)
                }
                switch bytes[offset] {
                case UInt8(ascii: ","):
                    offset += 1
                case UInt8(ascii: "}"):
                    offset += 1
                    depth -= 1
                    return placed(builder.close(.object, from: first, at: start), line, column)
                default:
                    throw issue("expected ',' or '}' after object member; add a comma between members or close the object", at: offset)
                }
            }
        }

        private mutating func parseArray(start: Int, line: Int, column: Int) throws(LoadIssue) -> DocumentTree.Node {
            try enterContainer()
            offset += 1  // [
            let first = builder.openCount
            let streamedArray = streamedArray()
            let streamed = streamedArray != nil ? streamElement : nil
            var count = 0
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                depth -= 1
                return placed(builder.close(.array, from: first, at: start), line, column)
            }
            while true {
                skipWhitespace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "]"), count > 0 {
                    throw issue("trailing comma before ']'; remove the comma", at: offset)
                }
                path.append(.index(count))
                if let streamed, let streamedArray {
                    let element = try parseStreamedElement()
                    path.removeLast()
                    try streamed(streamedArray, element, count)
                    readUpTo?(offset)
                } else {
                    builder.addChild(try parseValue())
                    path.removeLast()
                }
                count += 1
                skipWhitespace()
                guard offset < bytes.count else {
                    throw issue("the file ends early; expected ',' or ']' after array element: save or export it whole", at: offset)
                }
                switch bytes[offset] {
                case UInt8(ascii: ","):
                    offset += 1
                case UInt8(ascii: "]"):
                    offset += 1
                    depth -= 1
                    return placed(builder.close(.array, from: first, at: start), line, column)
                default:
                    throw issue("expected ',' or ']' after array element; add a comma between elements or close the array", at: offset)
                }
            }
        }

        /// An element of a streamed array, read into a small tree of its own while the
        /// document's tree waits.
        private mutating func parseStreamedElement() throws(LoadIssue) -> JSONNode {
            var document = DocumentTree.Builder(reservingCapacity: streamedNodes, placed: true)
            swap(&builder, &document)
            let element = try parseValue()
            swap(&builder, &document)
            streamedNodes = document.count
            return JSONNode(tree: document.finish(file: file, root: element))
        }

        // MARK: Container helpers

        /// The key node of the member named `key` among those read since `first`, if any; `seen`
        /// indexes them once there are many.
        private func earlierKey(_ key: String, from first: Int, seen: inout [String: DocumentTree.Node]?) -> DocumentTree.Node? {
            let children = builder.openChildren(from: first)
            if children.count < 32 {
                return stride(from: first, to: first + children.count, by: 2).lazy.map { children[$0] }.first { builder.isText($0, key) }
            }
            if seen == nil {
                var index: [String: DocumentTree.Node] = [:]
                for position in stride(from: first, to: first + children.count, by: 2) {
                    index[builder.string(children[position], source: bytes)] = children[position]
                }
                seen = index
            }
            return seen?[key]
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

        // MARK: Literals (numbers and strings are in JSONTextParser+Scalars.swift)

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
    }
}
