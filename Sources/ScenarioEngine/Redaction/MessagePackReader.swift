import Foundation

/// MessagePack as its specification writes it: every format family, lengths checked against the
/// bytes there are, nesting bounded.
enum MessagePackReader {
    typealias Value = BinaryBodyReader.Value

    /// The body read whole as one value or a stream of values; `nil` when a byte does not fit.
    static func readAll(_ bytes: [UInt8]) -> Value? {
        var reader = Cursor(bytes: bytes)
        var values: [Value] = []
        while reader.offset < bytes.count {
            guard let value = reader.value(depth: 0) else { return nil }
            values.append(value)
        }
        guard let first = values.first else { return nil }
        return values.count == 1 ? first : .list(values)
    }

    private struct Cursor {
        let bytes: [UInt8]
        var offset = 0

        /// The next `count` bytes, consumed; `nil` past the end.
        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        /// A big-endian unsigned number of `width` bytes.
        mutating func number(_ width: Int) -> Int? {
            guard let part = take(width) else { return nil }
            var value: UInt64 = 0
            for byte in part { value = value << 8 | UInt64(byte) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }

        mutating func value(depth: Int) -> Value? {
            guard depth <= BinaryBodyReader.maximumDepth, let head = take(1)?.first else { return nil }
            switch head {
            case 0x00...0x7F, 0xE0...0xFF, 0xC0, 0xC2, 0xC3: return .opaque
            case 0x80...0x8F: return map(Int(head & 0x0F), depth: depth)
            case 0x90...0x9F: return list(Int(head & 0x0F), depth: depth)
            case 0xA0...0xBF: return string(Int(head & 0x1F))
            case 0xC4, 0xD9: return number(1).flatMap { string($0) }
            case 0xC5, 0xDA: return number(2).flatMap { string($0) }
            case 0xC6, 0xDB: return number(4).flatMap { string($0) }
            case 0xC7: return number(1).flatMap { skip($0 + 1) }
            case 0xC8: return number(2).flatMap { skip($0 + 1) }
            case 0xC9: return number(4).flatMap { skip($0 + 1) }
            case 0xCA: return skip(4)
            case 0xCB: return skip(8)
            case 0xCC, 0xD0: return skip(1)
            case 0xCD, 0xD1: return skip(2)
            case 0xCE, 0xD2: return skip(4)
            case 0xCF, 0xD3: return skip(8)
            case 0xD4: return skip(2)
            case 0xD5: return skip(3)
            case 0xD6: return skip(5)
            case 0xD7: return skip(9)
            case 0xD8: return skip(17)
            case 0xDC: return number(2).flatMap { list($0, depth: depth) }
            case 0xDD: return number(4).flatMap { list($0, depth: depth) }
            case 0xDE: return number(2).flatMap { map($0, depth: depth) }
            case 0xDF: return number(4).flatMap { map($0, depth: depth) }
            default: return nil  // 0xC1 is never used
            }
        }

        private mutating func skip(_ count: Int) -> Value? { take(count).map { _ in .opaque } }

        /// A `str` or `bin` of `count` bytes: text when it reads as text (tokens travel in both).
        private mutating func string(_ count: Int) -> Value? {
            take(count).map { part in BinaryBodyReader.text(part).map(Value.text) ?? .opaque }
        }

        private mutating func list(_ count: Int, depth: Int) -> Value? {
            // Every element takes a byte at least: a count past the bytes left is not MessagePack.
            guard count <= bytes.count - offset else { return nil }
            var values: [Value] = []
            values.reserveCapacity(count)
            for _ in 0..<count {
                guard let value = value(depth: depth + 1) else { return nil }
                values.append(value)
            }
            return .list(values)
        }

        private mutating func map(_ count: Int, depth: Int) -> Value? {
            guard count <= (bytes.count - offset) / 2 else { return nil }
            var members: [Value.Member] = []
            members.reserveCapacity(count)
            for _ in 0..<count {
                guard let key = value(depth: depth + 1), let value = value(depth: depth + 1) else { return nil }
                members.append(Value.Member(key: key, value: value))
            }
            return .map(members)
        }
    }
}
