import Foundation

extension JSONValue {
    /// Compact JSON text with members in their stored order; the same value always gives the same text.
    public var compactText: String {
        var out = ""
        write(to: &out, pretty: false, level: 0)
        return out
    }

    /// Indented JSON text (two spaces), members in stored order.
    public var prettyText: String { prettyText(level: 0) }

    /// Indented JSON text as it stands `level` levels deep in a larger indented document: the
    /// first line unindented, the lines after it indented by `level` more steps.
    package func prettyText(level: Int) -> String {
        var out = ""
        write(to: &out, pretty: true, level: level)
        return out
    }

    /// Encodes any `Encodable` as a JSON value with keys sorted, for stable snapshots.
    public init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        self = try JSONTextParser(data: data, file: "<encoded>").parseDocument().value
    }

    /// The value as UTF-8 JSON bytes (compact).
    public var data: Data { Data(compactText.utf8) }

    private func write(to out: inout String, pretty: Bool, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value): out += Self.format(value)
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let elements):
            guard !elements.isEmpty else {
                out += "[]"
                return
            }
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                newline(&out, pretty, level + 1)
                element.write(to: &out, pretty: pretty, level: level + 1)
            }
            newline(&out, pretty, level)
            out += "]"
        case .object(let object):
            guard !object.isEmpty else {
                out += "{}"
                return
            }
            out += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { out += "," }
                newline(&out, pretty, level + 1)
                Self.writeString(member.key, to: &out)
                out += pretty ? ": " : ":"
                member.value.write(to: &out, pretty: pretty, level: level + 1)
            }
            newline(&out, pretty, level)
            out += "}"
        }
    }

    /// A line break and two spaces a level, taken whole from a table: reports break lines
    /// millions of times.
    private func newline(_ out: inout String, _ pretty: Bool, _ level: Int) {
        guard pretty else { return }
        if level < Self.lineBreaks.count {
            out += Self.lineBreaks[level]
        } else {
            out += "\n" + String(repeating: "  ", count: level)
        }
    }

    private static let lineBreaks = (0..<16).map { "\n" + String(repeating: "  ", count: $0) }

    /// Integers print without a fraction; other numbers in Swift's shortest round-trip form.
    static func format(_ value: Double) -> String {
        if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
            return String(Int64(value))
        }
        return value.isFinite ? "\(value)" : "null"
    }

    static func writeString(_ value: String, to out: inout String) {
        out += "\""
        // Reports write megabytes of transcript: copy runs that need no escape whole.
        let utf8 = value.utf8
        var run = utf8.startIndex
        var index = run
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                utf8.formIndex(after: &index)
                continue
            }
            out += value[run..<index]
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\n"): out += "\\n"
            case UInt8(ascii: "\r"): out += "\\r"
            case UInt8(ascii: "\t"): out += "\\t"
            default:
                let hex = String(byte, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            utf8.formIndex(after: &index)
            run = index
        }
        out += value[run..<index]
        out += "\""
    }
}

/// Writes one JSON object exactly as ``JSONValue/prettyText`` would, member by member, where a
/// member that is an array may be written element by element: a large document is then never
/// held whole, as text or as a tree.
package struct PrettyObjectWriter {
    private let write: (String) -> Void
    private var members = 0
    private var elements = 0

    /// Starts the object; every piece of text goes to `write`, in order.
    package init(write: @escaping (String) -> Void) {
        self.write = write
        write("{")
    }

    /// A member written whole.
    package mutating func member(_ key: String, _ value: JSONValue) {
        open(key)
        write(value.prettyText(level: 1))
    }

    /// Opens a member that is an array; its elements follow, then ``endArray()``.
    package mutating func beginArray(_ key: String) {
        open(key)
        write("[")
        elements = 0
    }

    /// The next element of the open array.
    package mutating func element(_ value: JSONValue) {
        write((elements == 0 ? "\n    " : ",\n    ") + value.prettyText(level: 2))
        elements += 1
    }

    /// Closes the open array.
    package mutating func endArray() {
        write(elements == 0 ? "]" : "\n  ]")
    }

    /// Closes the object.
    package func end() {
        write(members == 0 ? "}" : "\n}")
    }

    private mutating func open(_ key: String) {
        var text = members == 0 ? "\n  " : ",\n  "
        JSONValue.writeString(key, to: &text)
        write(text + ": ")
        members += 1
    }
}
