import Foundation
import ScenarioEngine

/// Reads the YAML that API documents are written in, and JSON, into a ``DocumentTree``, with no
/// package: block and flow mappings and sequences; plain, single- and double-quoted, literal
/// (`|`) and folded (`>`) scalars with chomping and indentation indicators; comments; anchors and
/// aliases; the YAML 1.2 core schema (`null`, `true`, `0x1F`, `.inf`, ...) and the standard tags
/// (`!!str`, `!!int`, ...). What an API document never needs (several documents in one file,
/// `? ` complex keys, collections as keys, custom tags) is refused by name.
///
/// Every error is a ``LoadIssue`` at its file, line, column and the JSON path it was reading. Bounds
/// keep hostile input harmless: the file's size, nesting depth, and how far aliases may multiply
/// the document (the "billion laughs").
package enum YAMLReader {
    /// The bounds a read keeps to.
    package struct Limits: Sendable {
        /// The most bytes a document may have: 64 MiB.
        package var maximumBytes = 64 << 20
        /// How deeply collections may nest.
        package var maximumDepth = 256
        /// Aliases may make the document, copied out, at most this many nodes beyond 10 per byte.
        package var aliasAllowance = 100_000

        /// The default bounds.
        package init() {}
    }

    /// Reads `bytes` as YAML (of which JSON is a part).
    package static func read(_ bytes: [UInt8], file: String, limits: Limits = Limits()) throws(LoadIssue) -> DocumentTree {
        try read(bytes, file: file, json: false, limits: limits)
    }

    /// Reads `bytes` as strict JSON (RFC 8259: no comments, no trailing commas, quoted keys).
    package static func readJSON(_ bytes: [UInt8], file: String, limits: Limits = Limits()) throws(LoadIssue) -> DocumentTree {
        try read(bytes, file: file, json: true, limits: limits)
    }

    /// Reads the file at `path`, as JSON when its name ends in `.json` and as YAML otherwise.
    package static func read(contentsOf path: String, limits: Limits = Limits()) throws(LoadIssue) -> DocumentTree {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: limits.maximumBytes)
        } catch .tooLarge(let size, let limit) {
            throw LoadIssue(
                location: ScenarioLocation(file: path, line: 1, column: 1, path: JSONPath.root),
                message: "the file has \(size) bytes, more than the \(limit >> 20) MiB an API document may have here",
                hint: "split it with $refs to other files")
        } catch {
            throw LoadIssue(
                location: ScenarioLocation(file: path, line: 1, column: 1, path: JSONPath.root), message: "cannot read the file: \(error)")
        }
        return try read(bytes, file: path, json: path.lowercased().hasSuffix(".json"), limits: limits)
    }

    private static func read(_ bytes: [UInt8], file: String, json: Bool, limits: Limits) throws(LoadIssue) -> DocumentTree {
        guard bytes.count <= limits.maximumBytes else {
            throw LoadIssue(
                location: ScenarioLocation(file: file, line: 1, column: 1, path: JSONPath.root),
                message: "the document has \(bytes.count) bytes, more than the \(limits.maximumBytes) a document may have here")
        }
        let starts = lineStarts(of: bytes)
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(LoadIssue) -> Scanner in
                var scanner = Scanner(bytes: buffer, file: file, json: json, limits: limits, lineStarts: starts)
                try scanner.readDocument()
                return scanner
            }
        }
        var scanner = try result.get()
        return scanner.tree.finish(file: file, root: scanner.root, source: bytes, lineStarts: starts)
    }

    /// Where each line starts: after `\n`, after `\r\n`, and after a `\r` alone.
    private static func lineStarts(of bytes: [UInt8]) -> [UInt32] {
        var starts: [UInt32] = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) {
                starts.append(UInt32(index + 1))
            }
            index += 1
        }
        return starts
    }
}

extension YAMLReader {
    /// The reading state: a cursor over the bytes, the tree being built, anchors, and the path
    /// being read (for messages).
    struct Scanner {
        enum PathPart {
            case key(DocumentTree.Node)
            case index(Int)
        }

        let bytes: UnsafeBufferPointer<UInt8>
        let file: String
        let json: Bool
        let limits: Limits
        let lineStarts: [UInt32]
        var offset = 0
        /// The index in `lineStarts` of the line `offset` is on.
        var line = 0
        /// The tree being read; strings written as they read stay in the source.
        var tree: DocumentTree.Builder
        var root: DocumentTree.Node = 0
        var depth = 0
        var anchors: [String: (node: DocumentTree.Node, size: Int)] = [:]
        /// Nodes the document would have with every alias copied out.
        var expanded = 0
        var path: [PathPart] = []
        /// The indentation of the line the cursor stands on after a block node (see the block reader).
        var nextIndent: Int?

        init(bytes: UnsafeBufferPointer<UInt8>, file: String, json: Bool, limits: Limits, lineStarts: [UInt32]) {
            self.bytes = bytes
            self.file = file
            self.json = json
            self.limits = limits
            self.lineStarts = lineStarts
            tree = DocumentTree.Builder(reservingCapacity: bytes.count / 12)
        }

        // MARK: The cursor

        var atEnd: Bool { offset >= bytes.count }

        func peek(_ ahead: Int = 0) -> UInt8? {
            offset + ahead < bytes.count ? bytes[offset + ahead] : nil
        }

        /// The 0-based column of the cursor in bytes (indentation is spaces, so bytes are characters there).
        var column: Int { offset - Int(lineStarts[line]) }

        static func isBreak(_ byte: UInt8?) -> Bool { byte == 0x0A || byte == 0x0D }
        static func isBlank(_ byte: UInt8?) -> Bool { byte == 0x20 || byte == 0x09 }
        /// A space, a tab, a line break or the end.
        static func isSeparator(_ byte: UInt8?) -> Bool { byte == nil || isBlank(byte) || isBreak(byte) }
        static func isFlowIndicator(_ byte: UInt8?) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "{")
                || byte == UInt8(ascii: "}")
        }

        /// Steps over one line break (`\r\n` counts as one).
        mutating func consumeBreak() {
            if peek() == 0x0D, peek(1) == 0x0A { offset += 1 }
            offset += 1
            line += 1
        }

        /// Steps over spaces and tabs on the line.
        mutating func skipBlanks() {
            while Self.isBlank(peek()) { offset += 1 }
        }

        /// Steps to the end of the line (before its break).
        mutating func skipToLineEnd() {
            while let byte = peek(), !Self.isBreak(byte) { offset += 1 }
        }

        // MARK: Building the tree

        /// Every node added counts towards the document's size with aliases copied out.
        mutating func counted(_ node: DocumentTree.Node) -> DocumentTree.Node {
            expanded += 1
            return node
        }

        mutating func addNull(at start: Int) -> DocumentTree.Node { counted(tree.addNull(at: start)) }

        mutating func addBool(_ value: Bool, at start: Int) -> DocumentTree.Node { counted(tree.addBool(value, at: start)) }

        mutating func addNumber(_ value: Double, at start: Int) -> DocumentTree.Node { counted(tree.addNumber(value, at: start)) }

        /// A string written as is from `range` of the source.
        mutating func addRawString(_ range: Range<Int>, at start: Int) -> DocumentTree.Node {
            counted(tree.addString(in: range, at: start))
        }

        /// A string that does not read as written (escapes, folded lines).
        mutating func addString(_ text: String, at start: Int) -> DocumentTree.Node { counted(tree.addString(text, at: start)) }

        /// Where the children of the collection about to be read start.
        var firstChild: Int { tree.openCount }

        /// Adds `node` as the next child of the collection being read.
        mutating func addChild(_ node: DocumentTree.Node) { tree.addChild(node) }

        /// Closes the collection whose children were added since `first`.
        mutating func close(_ kind: DocumentTree.Kind, from first: Int, at start: Int) throws(LoadIssue) -> DocumentTree.Node {
            if kind == .object { try checkDuplicateKeys(tree.openChildren(from: first)) }
            return counted(tree.close(kind, from: first, at: start))
        }

        /// The same key twice in one mapping is refused at its second use, as YAML and JSON readers differ on which one wins.
        private func checkDuplicateKeys(_ children: ArraySlice<DocumentTree.Node>) throws(LoadIssue) {
            guard children.count > 2 else { return }
            var seen: Set<String> = []
            for key in stride(from: children.startIndex, to: children.endIndex, by: 2).map({ children[$0] }) {
                let text = keyText(key)
                guard seen.insert(text).inserted else {
                    throw issue(
                        "the key '\(text)' is given twice in one mapping", at: tree.offset(key),
                        hint: "keep one; readers differ on which one wins")
                }
            }
        }

        func keyText(_ key: DocumentTree.Node) -> String {
            tree.string(key, source: bytes)
        }

        mutating func enterCollection(at start: Int) throws(LoadIssue) {
            depth += 1
            if depth > limits.maximumDepth {
                throw issue("the document nests deeper than \(limits.maximumDepth) levels", at: start, hint: "no API document needs this")
            }
        }

        // MARK: Messages

        func issue(_ message: String, at target: Int, hint: String? = nil) -> LoadIssue {
            let position = DocumentTree.position(of: target, in: bytes, lineStarts: lineStarts)
            return LoadIssue(
                location: ScenarioLocation(file: file, line: position.line, column: position.column, path: renderedPath()),
                message: message, hint: hint)
        }

        func renderedPath() -> String {
            var text = JSONPath.root
            for part in path {
                switch part {
                case .key(let key): text = JSONPath.appending(text, key: keyText(key))
                case .index(let index): text = JSONPath.appending(text, index: index)
                }
            }
            return text
        }

        /// A byte as a message names it.
        func describe(_ byte: UInt8?) -> String {
            guard let byte else { return "the end of the file" }
            if byte == 0x0A || byte == 0x0D { return "the end of the line" }
            if byte == 0x09 { return "a tab" }
            if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return String(format: "the byte 0x%02X", byte)
        }
    }
}
