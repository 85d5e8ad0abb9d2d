import Foundation

extension JSONValue {
    /// Compact JSON text with members in their stored order; the same value always gives the same text.
    public var compactText: String {
        var out: [UInt8] = []
        write(to: &out, pretty: false, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Indented JSON text (two spaces), members in stored order.
    public var prettyText: String { prettyText(level: 0) }

    /// Indented JSON text as it stands `level` levels deep in a larger indented document: the
    /// first line unindented, the lines after it indented by `level` more steps.
    package func prettyText(level: Int) -> String {
        var out: [UInt8] = []
        write(to: &out, pretty: true, level: level)
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes any `Encodable` as a JSON value with keys sorted, for stable snapshots.
    public init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        self = try JSONTextParser(data: data, file: "<encoded>").parseDocument().value
    }

    /// The value as UTF-8 JSON bytes (compact).
    package var data: Data { Data(compactText.utf8) }

    /// Appends the text to `out` as bytes: reports and drafts write megabytes of it, and bytes
    /// grow faster than a string.
    package func write(to out: inout [UInt8], pretty: Bool, level: Int) {
        switch self {
        case .null: out.append(contentsOf: Self.nullBytes)
        case .bool(let value): out.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        case .number(let value): out.append(contentsOf: Self.format(value).utf8)
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let elements):
            guard !elements.isEmpty else {
                out.append(UInt8(ascii: "["))
                out.append(UInt8(ascii: "]"))
                return
            }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, pretty, level + 1)
                element.write(to: &out, pretty: pretty, level: level + 1)
            }
            newline(&out, pretty, level)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                out.append(UInt8(ascii: "{"))
                out.append(UInt8(ascii: "}"))
                return
            }
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, pretty, level + 1)
                Self.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                member.value.write(to: &out, pretty: pretty, level: level + 1)
            }
            newline(&out, pretty, level)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let nullBytes = Array("null".utf8)
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    /// A line break and two spaces a level (reports break lines millions of times).
    private func newline(_ out: inout [UInt8], _ pretty: Bool, _ level: Int) {
        guard pretty else { return }
        Self.appendLineBreak(level, to: &out)
    }

    static func appendLineBreak(_ level: Int, to out: inout [UInt8]) {
        if level < lineBreaks.count {
            out.append(contentsOf: lineBreaks[level])
        } else {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: level * 2))
        }
    }

    private static let lineBreaks: [[UInt8]] = (0..<16).map { [0x0A] + Array(repeating: 0x20, count: $0 * 2) }

    /// Integers print without a fraction; other numbers in Swift's shortest round-trip form.
    static func format(_ value: Double) -> String {
        if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
            return String(Int64(value))
        }
        return value.isFinite ? "\(value)" : "null"
    }

    static func writeString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Runs that need no escape are copied whole.
        var value = value
        value.withUTF8 { bytes in
            var run = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
                default:
                    // \u00XX: control characters are below 0x20.
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)],
                    ])
                }
                run = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// Writes one JSON object exactly as ``JSONValue/prettyText`` would, member by member, where a
/// member that is an array may be written element by element: a large document is then never
/// held whole, as text or as a tree.
package struct PrettyObjectWriter {
    private let write: ([UInt8]) -> Void
    private var pending: [UInt8] = []
    private var members = 0
    private var elements = 0

    /// Starts the object; the text goes to `write` in pieces of about a megabyte, in order.
    package init(write: @escaping ([UInt8]) -> Void) {
        self.write = write
        pending.append(UInt8(ascii: "{"))
    }

    /// A member written whole.
    package mutating func member(_ key: String, _ value: JSONValue) {
        open(key)
        value.write(to: &pending, pretty: true, level: 1)
        flushIfFull()
    }

    /// Opens a member that is an array; its elements follow, then ``endArray()``.
    package mutating func beginArray(_ key: String) {
        open(key)
        pending.append(UInt8(ascii: "["))
        elements = 0
    }

    /// The next element of the open array.
    package mutating func element(_ value: JSONValue) {
        if elements > 0 { pending.append(UInt8(ascii: ",")) }
        JSONValue.appendLineBreak(2, to: &pending)
        value.write(to: &pending, pretty: true, level: 2)
        elements += 1
        flushIfFull()
    }

    /// Closes the open array.
    package mutating func endArray() {
        if elements > 0 { JSONValue.appendLineBreak(1, to: &pending) }
        pending.append(UInt8(ascii: "]"))
    }

    /// Closes the object and hands over what is left.
    package mutating func end() {
        if members > 0 { pending.append(0x0A) }
        pending.append(UInt8(ascii: "}"))
        write(pending)
        pending = []
    }

    private mutating func open(_ key: String) {
        if members > 0 { pending.append(UInt8(ascii: ",")) }
        JSONValue.appendLineBreak(1, to: &pending)
        JSONValue.writeString(key, to: &pending)
        pending.append(UInt8(ascii: ":"))
        pending.append(UInt8(ascii: " "))
        members += 1
    }

    private mutating func flushIfFull() {
        guard pending.count >= 1 << 20 else { return }
        write(pending)
        pending.removeAll(keepingCapacity: true)
    }
}
